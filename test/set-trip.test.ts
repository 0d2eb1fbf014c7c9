/**
 * A screenshot set's trip from `POST /public/v1/screenshots` to its stored PNGs (docs/set-trip.md),
 * measured on the source: each step names the file it runs in and a text that file must hold, and
 * how it is reached from the step that hands the set on (an import, the jobs row, a thread, or
 * wiring in src/service.ts). Every link is checked, so the documented trip cannot drift from the
 * code without this failing; the figures are computed from the steps, not written by hand.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');
const text = (file: string) => readFileSync(path.join(SRC, file), 'utf8');

type Link =
  /** The caller's file imports the step's file (values or types; an index.ts that re-exports it counts). */
  | 'import'
  /** The set waits as a row of the jobs table: the caller inserts it, the step claims it. */
  | 'row'
  /** The caller runs the step's file in a worker thread (workerFile, src/core/worker-file.ts). */
  | 'thread'
  /** The caller holds an injected dependency that src/service.ts builds from the step's file. */
  | 'wired';

interface Step {
  file: string;
  /** A text the file must hold: the function that has the set at this step. */
  has: string;
  link: Link;
  /** The step that calls this one, when it is not the step before (a call made after an earlier one returned). */
  from?: number;
  /** The text in the caller that makes the call. */
  via?: string;
  /**
   * Storage the set comes to rest in, not code it passes through: the object store holds the
   * PNGs as the database holds the rows (both layer 2 of src/README.md), so it is counted apart,
   * the same way the database always was.
   */
  rests?: true;
}

const TRIP: Step[] = [
  { file: 'api/create-screenshot-set.ts', has: "'/public/v1/screenshots'", link: 'import' },
  { file: 'sets/create.ts', has: 'export async function createScreenshotSet', link: 'import', via: 'await create(' },
  { file: 'sets/charge.ts', has: 'INSERT INTO jobs', link: 'import', via: 'chargeAndEnqueue(' },
  // Claimed (src/queue/claim.ts: fairly across accounts, under a lease), then run.
  { file: 'queue/worker.ts', has: 'this.opts.queue.claim(', link: 'row' },
  { file: 'sets/run.ts', has: 'export function screenshotSetRunner', link: 'wired', via: 'this.run(job' },
  { file: 'planning/pool.ts', has: 'async plan(', link: 'wired', via: 'planner.plan(' },
  { file: 'planning/pool-worker.ts', has: 'planSet(task.input', link: 'thread' },
  { file: 'planning/pipeline.ts', has: 'export async function planSet', link: 'import', via: 'planSet(' },
  { file: 'captions/model/writer.ts', has: 'export async function writeWithModel', link: 'import', via: 'writeWithModel(' },
  { file: 'sets/render.ts', has: 'export async function renderPictures', link: 'import', from: 4, via: 'renderPictures(' },
  { file: 'rendering/pool.ts', has: 'async renderSlides(', link: 'import', via: 'renderer.renderSlides(' },
  { file: 'rendering/worker.ts', has: 'export default async function run', link: 'thread' },
  { file: 'sets/files.ts', has: 'export async function keepPicture', link: 'import', from: 9, via: 'keepPicture(' },
  // The PNGs are stored here (ObjectStore.put: the filesystem or S3, src/objects/).
  { file: 'objects/store.ts', has: 'put(key: string', link: 'import', via: 'objects.put(', rests: true },
  // The set is only seen with its pictures once its job completes: the rows naming them commit with it.
  { file: 'queue/queue.ts', has: 'await outcome.save?.(tx)', link: 'import', from: 3, via: '.complete(' },
  { file: 'sets/files.ts', has: 'export async function saveJobFiles', link: 'import', from: 4, via: 'saveJobFiles(' },
];
/** The step at which the PNGs are stored. */
const STORED = 13;

const folderOf = (file: string) => file.split('/')[0];

/** Relative imports of a file (re-exports included; type-only ones unless `valuesOnly`), resolved under src/. */
function importsOf(file: string, valuesOnly = false): string[] {
  const found: string[] = [];
  for (const m of text(file).matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^'"]*?from\s+'(\.{1,2}\/[^']+)'/g))
    if (!(valuesOnly && m[1])) found.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), m[2])));
  return found;
}
const reaches = (from: string, to: string) =>
  importsOf(from).some((i) => i === to || (i.endsWith('/index.ts') && importsOf(i).includes(to)));

/** How often the trip moves from one folder to another between consecutive steps, up to `last`. */
const crossings = (last: number) => TRIP.slice(1, last + 1).filter((s, i) => folderOf(s.file) !== folderOf(TRIP[i].file)).length;
const folders = (last: number) => [
  ...new Set(
    TRIP.slice(0, last + 1)
      .filter((s) => !s.rests)
      .map((s) => folderOf(s.file)),
  ),
];
/** The storage folders the set rests in on the way (every step, resting or not, is in `crossings`). */
const restsIn = () => [...new Set(TRIP.filter((s) => s.rests).map((s) => folderOf(s.file)))];

describe('a set’s trip from POST /public/v1/screenshots to its stored PNGs', () => {
  it('follows the code: every step is where it says, reached the way it says', () => {
    const broken: string[] = [];
    TRIP.forEach((step, i) => {
      if (!text(step.file).includes(step.has)) broken.push(`${i} ${step.file}: no "${step.has}"`);
      if (i === 0) return;
      const caller = TRIP[step.from ?? i - 1];
      if (step.via && !text(caller.file).includes(step.via)) broken.push(`${i} ${caller.file}: no call "${step.via}"`);
      const ok = {
        import: () => reaches(caller.file, step.file),
        row: () => text(caller.file).includes('INSERT INTO jobs'),
        thread: () => text(caller.file).includes(`workerFile(import.meta.url, '${path.basename(step.file, '.ts')}')`),
        wired: () => importsOf('service.ts').some((f) => f === step.file || (f.endsWith('/index.ts') && importsOf(f).includes(step.file))),
      }[step.link]();
      if (!ok) broken.push(`${i} ${caller.file} -> ${step.file}: no ${step.link} link`);
    });
    expect(broken).toEqual([]);
  });

  it('passes through 6 folders of code to the stored PNGs (9 folder changes), and no new one to the completed job', () => {
    expect(folders(STORED)).toEqual(['api', 'sets', 'queue', 'planning', 'captions', 'rendering']);
    expect(crossings(STORED)).toBe(9);
    expect(folders(TRIP.length - 1)).toHaveLength(6);
    expect(crossings(TRIP.length - 1)).toBe(11);
  });

  it('rests only in storage: the PNGs in objects/, the rows through db/ (a lookup below)', () => {
    expect(restsIn()).toEqual(['objects']);
    expect(TRIP.filter((s) => s.rests).every((s) => !TRIP.some((t, i) => (t.from ?? i - 1) === TRIP.indexOf(s) && i > 0))).toBe(true);
  });

  it('looks things up in 8 more folders on the way (an upper bound: the steps’ files’ value imports)', () => {
    const main = new Set([...folders(TRIP.length - 1), ...restsIn()]);
    const side = new Set(
      TRIP.flatMap((s) => importsOf(s.file, true))
        .map((i) => (i.includes('/') ? folderOf(i) : '(root)'))
        .filter((f) => !main.has(f)),
    );
    expect([...side].sort()).toEqual(['accounts', 'apps', 'brand', 'core', 'db', 'http', 'metrics', 'screens']);
  });
});
