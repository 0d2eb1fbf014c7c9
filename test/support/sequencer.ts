/**
 * The order files start in. Vitest starts the longest files first only when its cache holds their
 * last durations; a fresh clone (CI) has none, and then it starts the largest files first, so the
 * short files that run for a minute (a few tests that render, plan a corpus or restart processes)
 * started last and one of them set the run's end: in a loaded run goldens.test.ts started at 86 %
 * of the run and recordings.test.ts at 94 %. These start first, longest first; the rest follow in
 * vitest's own order. A file missing from the list only starts later; the list does not need to be
 * exact, and one that no longer exists is ignored.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest first: seconds per file in a full run on 3 workers while other work loaded the machine
 * (28 Nov 2026, 363 s for 237 files; ht4's profile), every file that took 10 s or more. A file's
 * time is mostly waiting (child processes, leases, browsers): the list orders, it does not budget.
 */
export const SLOW_FILES = [
  'test/dashboard/editor-browser.test.ts', // 43
  'test/client/cli.test.ts', // 37
  'test/publishing/sigkill.test.ts', // 33
  'test/sets/processes.test.ts', // 32
  'test/rendering/goldens.test.ts', // 29
  'test/cli/cli.test.ts', // 28
  'test/db/embedded.test.ts', // 26
  'test/cli/demo.test.ts', // 25
  'test/ops/outage-external.test.ts', // 24
  'test/queue/worker-processes.test.ts', // 21
  'test/webhooks/delivery.test.ts', // 20
  'test/rendering/lint.test.ts', // 20
  'test/client/client.test.ts', // 20
  'test/sets/store-images.test.ts', // 20
  'test/client/mcp.test.ts', // 19
  'test/rendering/render-set.test.ts', // 18
  'test/ops/private-dir.test.ts', // 17
  'test/dashboard/browser.test.ts', // 17
  'test/ops/split-deployment.test.ts', // 17
  'test/planning/rules.test.ts', // 17
  'test/rendering/brand-fonts.test.ts', // 16
  'test/sets/revisions/revisions.test.ts', // 15
  'test/publishing/cli.test.ts', // 14
  'test/sets/listing-screen-matching.test.ts', // 13
  'test/sets/create-screenshot-set.test.ts', // 13
  'test/publishing/google-play.test.ts', // 12
  'test/ops/outage-embedded.test.ts', // 12
  'test/planning/job-model-failures.test.ts', // 12
  'test/sets/screen-matching.test.ts', // 12
  'test/publishing/variants-faults.test.ts', // 11
  'test/http/hostile-clients.test.ts', // 10
];

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FILES.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i < 0 ? SLOW_FILES.length : i;
    };
    // Array.prototype.sort is stable: the unlisted files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
