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

/** Longest first: seconds per file in a loaded full run (about four times an idle one), 27 Nov 2026. */
export const SLOW_FILES = [
  'test/rendering/goldens.test.ts', // 210
  'test/client/cli.test.ts', // 208
  'test/dashboard/editor-browser.test.ts', // 190
  'test/sets/processes.test.ts', // 150
  'test/queue/worker-processes.test.ts', // 145
  'test/dashboard/browser.test.ts', // 127
  'test/ops/split-deployment.test.ts', // 121
  'test/cli/cli.test.ts', // 119
  'test/planning/captions.test.ts', // 95
  'test/planning/rules.test.ts', // about 85 once it planned a third of its matrix (28 Nov)
  'test/client/client.test.ts', // 84
  'test/ops/private-dir.test.ts', // 83
  'test/sets/store-images.test.ts', // 78
  'test/rendering/lint.test.ts', // 73
  'test/ops/outage-embedded.test.ts', // half of outage.test.ts's 121
  'test/ops/outage-external.test.ts',
  'test/planning/recordings.test.ts', // about 60 once it planned one voice a device (28 Nov)
  'test/dashboard/publishing-browser.test.ts', // 59
  'test/planning/quality.test.ts', // about 55 once it judged a fifth of the corpus's sets (28 Nov)
  'test/publishing/sigkill.test.ts', // 58
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
