/**
 * The options every piscina pool of the service starts its threads with.
 *
 * The module: the caller's sibling, `x-worker.ts` under tsx or vitest (the thread then needs tsx's
 * loader too), `x-worker.js` in the compiled dist/.
 *
 * `atomics: 'disabled'`: between tasks piscina's default parks a thread in Atomics.wait and reads
 * the next task synchronously, so the thread's event loop turns only when a task awaits real I/O.
 * Native memory handed to JavaScript (skia's pixels from @napi-rs/canvas) is freed by finalizers
 * that run on that loop: with slides back to back they never ran, and ~15 MB a slide piled up
 * (a pool of 2 threads: 4.9 GB resident after 300 slides; with the loop turning, flat at ~550 MB,
 * and the 300 slides took 7.9 s instead of 12.8). test/rendering/pool-memory.test.ts holds it.
 */
export function workerFile(callerUrl: string, basename: string): { filename: string; execArgv: string[]; atomics: 'disabled' } {
  const fromSource = callerUrl.endsWith('.ts');
  const filename = new URL(`./${basename}${fromSource ? '.ts' : '.js'}`, callerUrl).href;
  return { filename, execArgv: fromSource ? ['--import', 'tsx'] : [], atomics: 'disabled' };
}
