/** `npx tsx bench/fillable.ts inline|thread`: the event loop's busy time per create's fillability check (performance.eventLoopUtilization, main thread only), inline against the fillability thread, over the caption corpus at count 6. */
import { performance } from 'node:perf_hooks';
import { checkFillable, factsOffThread, closeFillability, verdictOf } from '../src/planning/fillable.ts';
import { corpus } from '../test/planning/corpus/index.ts';
import { devicesFor } from '../test/planning/corpus/measure.ts';
import type { PlanInput } from '../src/core/set.ts';
const inputs: PlanInput[] = corpus().map((e) => ({
  listings: [e.listing],
  extraContext: null,
  request: { device: devicesFor(e.listing)[0], count: 6 },
  uploadedScreens: 1,
}));
async function run(label: string, f: (i: PlanInput) => Promise<void> | void) {
  for (const pass of ['cold', 'warm']) {
    const elu0 = performance.eventLoopUtilization();
    const t0 = performance.now();
    let maxSync = 0;
    for (const i of inputs) {
      const s = performance.now();
      const p = (async () => f(i))().catch(() => {});
      maxSync = Math.max(maxSync, performance.now() - s);
      await p;
    }
    const elu = performance.eventLoopUtilization(elu0);
    console.log(
      `${label} ${pass}: main-thread busy ${(elu.active / inputs.length).toFixed(2)} ms per create (longest synchronous stretch ${maxSync.toFixed(1)} ms), wall ${((performance.now() - t0) / inputs.length).toFixed(1)} ms`,
    );
  }
}
if (process.argv[2] === 'inline') await run('inline', (i) => void checkFillable(i, false));
else {
  const offThread = async (i: PlanInput) => verdictOf((await factsOffThread(i, [i.request]))[0], i.uploadedScreens, false);
  await offThread(inputs[0]).catch(() => {});
  await run('thread', async (i) => void (await offThread(i)));
  await closeFillability();
}
