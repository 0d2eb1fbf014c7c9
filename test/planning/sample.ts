/**
 * How much of the planning matrices `npm test` plans. The slow tiers run on small inputs and are
 * never skipped: in `npm test` each matrix test (rules, recordings, quality; and through
 * ./support/every-voice.ts captions, held-out, fifth-read-shapes) plans a fixed, documented rotation
 * of its matrix that still reaches every listing, device, voice and length, so a run is
 * deterministic and a failure reproduces. `npm run plan:full` runs the same tests on the whole
 * matrix (PLAN_FULL=1), and `npm run plan:report` / `plan:figures` measure the whole corpus; run them
 * after a change to the writer or the checker (docs/captions.md, "What `npm test` plans").
 */
export const FULL = process.env.PLAN_FULL === '1';

/** Whether the rotation plans item `i` of `n` for row `k`: one in `n`, shifted by the row, or all when FULL. */
export const rotated = (k: number, i: number, n: number): boolean => FULL || (((k + i) % n) + n) % n === 0;
