/**
 * The README's performance table is written by the bench, between two markers, so the figures a
 * newcomer reads are the last run's and cannot drift from what the bench measures.
 */
import fs from 'node:fs';
import type { LoadResult } from './load.ts';

export const TABLE_START = '<!-- bench:table:start (written by npm run bench; do not edit by hand) -->';
export const TABLE_END = '<!-- bench:table:end -->';

export interface ReadmeRow {
  scenario: string;
  /** req/s or a time, with the ratio to bare where there is one. */
  figure: string;
  p99: string;
  goal: string;
  met: boolean | null;
}

export function readmeTable(rows: ReadmeRow[], footnote: string): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(['scenario', 'req/s or time', 'p99 ms', 'goal', 'met?']),
    line(['---', '---:', '---:', '---', '---']),
    ...rows.map((r) => line([r.scenario, r.figure, r.p99, r.goal, r.met === null ? '' : r.met ? 'yes' : 'no'])),
    '',
    footnote,
  ].join('\n');
}

/** `text` with what lies between the markers replaced; throws if they are missing or out of order. */
export function replaceTable(text: string, table: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no "${TABLE_START}" … "${TABLE_END}" section for the bench's table`);
  return `${text.slice(0, start + TABLE_START.length)}\n${table}\n${text.slice(end)}`;
}

/** Markdown is not Prettier's (.prettierignore): the table is written as it is, and nothing else changes. */
export function writeReadmeTable(readmePath: string, table: string): void {
  fs.writeFileSync(readmePath, replaceTable(fs.readFileSync(readmePath, 'utf8'), table));
}

export const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
// autocannon reports whole milliseconds; printing those as "2.00" would claim a precision it lacks.
export const fmtMs = (n: number) => (!Number.isFinite(n) ? '—' : Number.isInteger(n) || n >= 100 ? n.toFixed(0) : n.toFixed(2));

type Load = Pick<LoadResult, 'reqPerSec' | 'p99Ms' | 'failures'>;

/** What one `npm run bench` measured, as much of it as the README shows. */
export interface BenchFigures {
  bare: Load & { bodyBytes: number };
  account: Load;
  jobDone: Load & { bodyBytes: number };
  /** The bare responder sending a body of the succeeded job's size. */
  bareSameSize: Load;
  jobQueued: Load;
  createOne: { load: Load; exact: boolean };
  createMany: { load: Load; exact: boolean; accounts: number };
  pickup: { p50: number; p99: number };
  sets: { sets: number; slides: number; requestedSlides: number; p50: number; p95: number; pollP50: number; pollP99: number };
  setGoals: { setP50Ms: number; pollP99Ms: number };
  /** Server CPU µs per response of each run, where /proc could tell. */
  cpuUs: { bare: number | null; account?: number | null; jobDone?: number | null; jobQueued?: number | null };
}

/** The README's rows; a goal is met only if its figure is and no request of that run failed. */
export function readmeRows(f: BenchFigures): ReadmeRow[] {
  const ratio = (r: Load, b: Load) => `${(r.reqPerSec / b.reqPerSec).toFixed(2)}×`;
  const cpuRatio = (us: number | null | undefined) => (us && f.cpuUs.bare ? `, CPU ${(f.cpuUs.bare / us).toFixed(2)}×` : '');
  const get = (scenario: string, r: Load, b: Load, us: number | null | undefined): ReadmeRow => ({
    scenario,
    figure: `${fmtInt(r.reqPerSec)}/s (${ratio(r, b)} bare${cpuRatio(us)})`,
    p99: fmtMs(r.p99Ms),
    goal: '≥ 0.5× bare',
    met: r.reqPerSec / b.reqPerSec >= 0.5 && !r.failures,
  });
  const { createOne: one, createMany: many, sets } = f;
  return [
    {
      scenario: `bare node:http (${f.bare.bodyBytes} B)`,
      figure: `${fmtInt(f.bare.reqPerSec)}/s`,
      p99: fmtMs(f.bare.p99Ms),
      goal: 'baseline',
      met: null,
    },
    get('GET /account', f.account, f.bare, f.cpuUs.account),
    get(
      `GET job, succeeded, with signed picture URLs (${f.jobDone.bodyBytes} B; vs bare of that size)`,
      f.jobDone,
      f.bareSameSize,
      f.cpuUs.jobDone,
    ),
    {
      ...get('GET job, queued (read from the database on purpose)', f.jobQueued, f.bare, f.cpuUs.jobQueued),
      goal: 'none: always read from PostgreSQL',
      met: null,
    },
    {
      scenario: `POST /screenshots, one account / ${many.accounts} accounts`,
      figure: `${fmtInt(one.load.reqPerSec)}/s / ${fmtInt(many.load.reqPerSec)}/s`,
      p99: `${fmtMs(one.load.p99Ms)} / ${fmtMs(many.load.p99Ms)}`,
      goal: '≥ 2,000/s, credits exact',
      met:
        one.load.reqPerSec >= 2000 && many.load.reqPerSec >= 2000 && one.exact && many.exact && !one.load.failures && !many.load.failures,
    },
    {
      scenario: 'job pickup, created → started',
      figure: `p50 ${fmtMs(f.pickup.p50)} ms`,
      p99: fmtMs(f.pickup.p99),
      goal: 'p50 < 50 ms',
      met: f.pickup.p50 < 50,
    },
    {
      scenario: `${sets.requestedSlides}-slide iphone-69 set, 201 → every PNG and the ZIP stored (${(sets.slides / sets.sets).toFixed(0)} slides a set)`,
      figure: `p50 ${fmtInt(sets.p50)} ms, p95 ${fmtInt(sets.p95)} ms`,
      p99: '',
      goal: `p50 < ${f.setGoals.setP50Ms / 1000} s`,
      // A set with fewer slides than asked for is cheaper than what is measured: not met.
      met: sets.p50 < f.setGoals.setP50Ms && sets.slides === sets.sets * sets.requestedSlides,
    },
    {
      scenario: 'GET job while those sets render, same process',
      figure: `p50 ${fmtMs(sets.pollP50)} ms`,
      p99: fmtMs(sets.pollP99),
      goal: `p99 < ${f.setGoals.pollP99Ms} ms`,
      met: sets.pollP99 < f.setGoals.pollP99Ms,
    },
  ];
}
