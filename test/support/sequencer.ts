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
 * Longest first: seconds per file in a loaded full run on the slower VM (28 Nov 2026, 672 s for 232
 * files on 3 workers), every file that took 20 s or more.
 */
export const SLOW_FILES = [
  'test/cli/demo.test.ts', // 70
  'test/cli/cli.test.ts', // 60
  'test/rendering/goldens.test.ts', // 58
  'test/sets/processes.test.ts', // 55
  'test/dashboard/editor-browser.test.ts', // 49
  'test/planning/rules.test.ts', // 49
  'test/client/cli.test.ts', // 48
  'test/publishing/sigkill.test.ts', // 46
  'test/dashboard/browser.test.ts', // 43
  'test/planning/captions.test.ts', // 38
  'test/queue/worker-processes.test.ts', // 38
  'test/db/embedded.test.ts', // 36
  'test/ops/outage-external.test.ts', // 34
  'test/planning/quality.test.ts', // 31
  'test/client/client.test.ts', // 31
  'test/planning/recordings.test.ts', // 30
  'test/sets/listing-screen-matching.test.ts', // 30
  'test/sets/screen-matching.test.ts', // 29
  'test/rendering/render-set.test.ts', // 28
  'test/client/mcp.test.ts', // 27
  'test/ops/split-deployment.test.ts', // 27
  'test/planning/job-model-failures.test.ts', // 26
  'test/sets/store-images.test.ts', // 26
  'test/planning/plan.test.ts', // 25
  'test/publishing/cli.test.ts', // 25
  'test/publishing/custom-product-pages.test.ts', // 25
  'test/publishing/faults-every-call.test.ts', // 24
  'test/sets/create-screenshot-set.test.ts', // 24
  'test/rendering/brand-fonts.test.ts', // 23
  'test/sets/fill-checks.test.ts', // 21
  'test/publishing/google-play.test.ts', // 21
  'test/sets/landscape.test.ts', // 20
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
