/** The bench writes the README's performance table between its markers, and only there. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeRows, readmeTable, replaceTable, TABLE_END, TABLE_START, writeReadmeTable, type BenchFigures } from '../../bench/readme.ts';

const table = readmeTable(
  [
    { scenario: 'bare', figure: '10/s', p99: '1', goal: 'baseline', met: null },
    { scenario: 'GET /account', figure: '6/s (0.60× bare)', p99: '2', goal: '≥ 0.5× bare', met: true },
  ],
  'Written by a test.',
);

describe('the README performance table', () => {
  it('the README has the markers, in order', () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8');
    expect(readme.indexOf(TABLE_START)).toBeGreaterThan(0);
    expect(readme.indexOf(TABLE_END)).toBeGreaterThan(readme.indexOf(TABLE_START));
  });

  it('replaces what lies between the markers and keeps the rest; refuses a README without them', () => {
    const before = `# Title\n\n${TABLE_START}\n| old | table |\n${TABLE_END}\n\nAfter.\n`;
    const after = replaceTable(before, table);
    expect(after).toContain('| GET /account | 6/s (0.60× bare) | 2 | ≥ 0.5× bare | yes |');
    expect(after).not.toContain('old');
    expect(after.startsWith(`# Title\n\n${TABLE_START}\n`)).toBe(true);
    expect(after.endsWith(`${TABLE_END}\n\nAfter.\n`)).toBe(true);
    expect(replaceTable(after, table)).toBe(after);
    expect(() => replaceTable('# no markers', table)).toThrow(/bench:table:start/);
  });

  it('writes the table into the file and changes nothing else', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-readme-'));
    try {
      const file = path.join(dir, 'README.md');
      fs.writeFileSync(file, `# T\n\n- *a* list\n\n${TABLE_START}\n${TABLE_END}\n`);
      writeReadmeTable(file, table);
      const written = fs.readFileSync(file, 'utf8');
      expect(written).toContain('| GET /account | 6/s (0.60× bare) | 2 | ≥ 0.5× bare | yes |');
      expect(written.startsWith('# T\n\n- *a* list\n\n')).toBe(true);
      expect(written).toContain('Written by a test.');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A small run's figures, as bench/run.ts hands them over. */
function figures(over: Partial<BenchFigures> = {}): BenchFigures {
  const load = (reqPerSec: number, p99Ms = 2, failures = 0) => ({ reqPerSec, p99Ms, failures });
  return {
    bare: { ...load(40_000, 1), bodyBytes: 168 },
    account: load(24_000),
    jobDone: { ...load(15_000), bodyBytes: 3_400 },
    bareSameSize: load(25_000),
    jobQueued: load(9_000, 5),
    createOne: { load: load(2_100, 39), exact: true },
    createMany: { load: load(4_900, 18), exact: true, accounts: 25 },
    pickup: { p50: 5.4, p99: 7.7 },
    sets: { sets: 4, slides: 40, requestedSlides: 10, p50: 1_232, p95: 1_318, pollP50: 0.71, pollP99: 5.3 },
    setGoals: { setP50Ms: 2_500, pollP99Ms: 10 },
    cpuUs: { bare: 14, account: 26, jobDone: 30, jobQueued: 60 },
    ...over,
  };
}

describe('the rows the bench writes', () => {
  it('ratios to bare (the job against bare of its size), CPU ratios, and whether each goal is met', () => {
    const rows = readmeRows(figures());
    const table = readmeTable(rows, 'Written by a test.');
    expect(table).toContain('| bare node:http (168 B) | 40,000/s | 1 | baseline |  |');
    expect(table).toContain('| GET /account | 24,000/s (0.60× bare, CPU 0.54×) | 2 | ≥ 0.5× bare | yes |');
    expect(table).toContain('(3400 B; vs bare of that size) | 15,000/s (0.60× bare, CPU 0.47×) | 2 | ≥ 0.5× bare | yes |');
    expect(table).toContain(
      '| POST /screenshots, one account / 25 accounts | 2,100/s / 4,900/s | 39 / 18 | ≥ 2,000/s, credits exact | yes |',
    );
    expect(table).toContain(
      '| 10-slide iphone-69 set, 201 → every PNG and the ZIP stored (10 slides a set) | p50 1,232 ms, p95 1,318 ms |  | p50 < 2.5 s | yes |',
    );
    expect(rows.find((r) => r.scenario.startsWith('GET job, queued'))).toMatchObject({ met: null });
  });

  it('a goal is not met below target, with failed requests, inexact credits, or sets short of slides', () => {
    const met = (f: BenchFigures, start: string) => readmeRows(f).find((r) => r.scenario.startsWith(start))!.met;
    expect(met(figures({ account: { reqPerSec: 19_000, p99Ms: 2, failures: 0 } }), 'GET /account')).toBe(false);
    expect(met(figures({ account: { reqPerSec: 30_000, p99Ms: 2, failures: 3 } }), 'GET /account')).toBe(false);
    const one = { load: { reqPerSec: 2_500, p99Ms: 30, failures: 0 }, exact: false };
    expect(met(figures({ createOne: one }), 'POST /screenshots')).toBe(false);
    expect(met(figures({ createOne: { ...one, load: { ...one.load, reqPerSec: 1_616 }, exact: true } }), 'POST /screenshots')).toBe(false);
    const short = { ...figures().sets, slides: 36 };
    expect(met(figures({ sets: short }), '10-slide')).toBe(false);
    expect(readmeRows(figures({ sets: short })).find((r) => r.scenario.startsWith('10-slide'))!.scenario).toContain('(9 slides a set)');
  });
});
