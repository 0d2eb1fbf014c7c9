/**
 * V8 flags for the rendering threads' heaps, set in this process before the first thread starts
 * (a worker's heap reads them when it is created; the Worker options have no initial size).
 *
 * A render thread allocates little JavaScript but hands V8 ~16 MB of external memory a slide
 * (skia's pixels, the PNG). With V8's small initial old-generation limit every slide ended in a
 * full mark-compact: ~12 ms of CPU across threads and marking steps, on a heap of 13 MB. With
 * 64 MB to start, one 1320×2868 slide on a thread measured 89-95 → 72-82 ms of process CPU
 * (median of 60, 4 runs; ~30 MB more RSS). The flags are process-wide: threads started later
 * for other pools get them too, which costs them nothing.
 */
import v8 from 'node:v8';

export const RENDER_THREAD_V8_FLAGS = ['--initial-old-space-size=64'];

let applied = false;

export function configureThreadHeaps(): void {
  if (applied) return;
  applied = true;
  for (const flag of RENDER_THREAD_V8_FLAGS) v8.setFlagsFromString(flag);
}
