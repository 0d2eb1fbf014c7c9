/**
 * Sixth read, beside the shapes: warnings that say what is true. The bare-slide warning no longer
 * claims a check that never ran (src/planning/left-out.ts, whyBare, runs none).
 */
import { describe, expect, it } from 'vitest';
import { missingSubheadlinesWarning } from '../../src/planning/story.ts';

describe('the bare-slide warning claims no check it did not run', () => {
  it('says the rest is not said under the slide, not that it failed the rules', () => {
    const w = missingSubheadlinesWarning([3], { why: 'rest', rest: 'as they move' });
    expect(w).toContain('("as they move") is not said under it');
    expect(w).not.toContain('did not pass');
  });
});
