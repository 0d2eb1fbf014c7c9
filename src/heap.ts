/**
 * How far the service process's own heap (the thread that answers HTTP) grows before a full
 * collection. V8 sets the limit at live size × a factor it picks from GC speed; for this service's
 * ~50 MB live heap it picked ~1.5, and while sets rendered the thread ran a mark-compact every set
 * or two (~20 in 20 sets), each pausing the polls it was answering for 5-17 ms. At 3× it ran 3,
 * and the poll p99 while sets render went 12.5-13.2 → 8.4-9.9 ms (the bench, and 3 runs of its
 * sets alone), for up to ~100 MB more heap. The flag is read at each collection, so setting it
 * after start takes effect; it is process-wide, and the render threads' own limit
 * (rendering/thread-heap.ts) is larger anyway.
 */
import v8 from 'node:v8';

export const SERVICE_HEAP_GROWING_PERCENT = 200;

let applied = false;

export function configureServiceHeap(): void {
  if (applied) return;
  applied = true;
  v8.setFlagsFromString(`--heap-growing-percent=${SERVICE_HEAP_GROWING_PERCENT}`);
}
