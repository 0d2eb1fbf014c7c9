/**
 * Ends the run with plain lines any CI can read: "tests: N passed, N failed, N skipped", and which
 * tiers (./tiers.ts) ran and which were skipped, with why.
 */
import type { Reporter, TestModule } from 'vitest/node';
import type { TierState } from './tiers.ts';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const tiers = new Map<string, TierState>();
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
        const tier = test.meta().tier;
        // A tier used by several files ran if it ran in any of them.
        if (tier && !tiers.get(tier.name)?.ran) tiers.set(tier.name, tier);
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    const lines = [`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`];
    const ran = [...tiers.values()].filter((t) => t.ran).map((t) => t.name);
    const missing = [...tiers.values()].filter((t) => !t.ran);
    if (tiers.size) lines.push(`tiers ran: ${ran.length ? ran.sort().join(', ') : 'none'}`);
    for (const t of missing) lines.push(`tier not run: ${t.name} (${t.missing})`);
    process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
