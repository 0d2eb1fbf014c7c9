/**
 * `npx tsx bench/serialize-job.ts`: the cost of serialising a finished 10-slide job through its
 * response schema (fast-json-stringify, what Fastify does on every poll) next to JSON.stringify.
 * It decided Nullable() over anyOf in src/core/typebox.ts. Not part of `npm run bench`.
 */
import fjs from 'fast-json-stringify';
import { JobSchema } from '../src/core/job-schemas.ts';
import { planScreenshotSet } from '../src/planning/plan.ts';
import { sampleListing } from '../test/support/fixtures.ts';

const result = planScreenshotSet({ listings: [sampleListing()], extraContext: null, request: { device: 'iphone-69', count: 10 } });
const now = new Date().toISOString();
const job = { id: 'job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF', status: 'succeeded', result, error: null, createdAt: now, updatedAt: now };
const serialize = fjs(JobSchema as never);
if (serialize(job) !== JSON.stringify(job)) throw new Error('the schema serialiser changed the job');

function time(name: string, f: () => string): void {
  for (let i = 0; i < 2_000; i++) f();
  const n = 20_000;
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  console.log(`${name}: ${(Number(process.hrtime.bigint() - t) / n / 1000).toFixed(1)} µs per ${f().length} B job`);
}
for (let round = 0; round < 3; round++) {
  time('JSON.stringify', () => JSON.stringify(job));
  time('response schema (fast-json-stringify)', () => serialize(job));
}
