/**
 * What a create's check before the charge reads of the set's plan (src/planning/fillable.ts:
 * FillFacts), kept with the app and planned when the app is created or its guidance changes, so
 * that an app's first create reads them like its hundredth. It used to plan inside the request:
 * 7.9-9.8 s at load 15-20 for each app's first create (a repeat: 0.01-0.03 s), most of it the
 * planning thread starting and understanding a listing it had not seen.
 *
 * Facts are named by what they are planned from: the listings and the guidance (`source`, a hash)
 * and the request's device, voice, length and count or narrative. A changed listing or guidance is
 * a new name, never a stale answer. They hold for any uploaded screens and either writer (the
 * create applies those: verdictOf), so uploading or deleting a screen changes none of them.
 *
 * Planned ahead: every count and narrative of the default voice and length, for each device of
 * the app's stores, one device at a time on the planning thread (a create's own planning waits for
 * one device at most), the usual set of the largest phone first and alone. Anything else is planned by the first create that asks, and kept.
 * In PostgreSQL (every process and a restart read them) and, in front, in each process's memory.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { App } from '../apps/apps.ts';
import type { Queryable } from '../db/pool.ts';
import { factsOffThread, sweepRequests, type FillFacts } from '../planning/fillable.ts';
import { DEFAULT_CAPTION_LENGTH, DEFAULT_CAPTION_STYLE, DEFAULT_COUNT, type PlanRequest } from '../core/set.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import type { Listing } from '../core/listing.ts';

type FactsRequest = Required<Pick<PlanRequest, 'device' | 'captionStyle' | 'captionLength' | 'count'>> & { narrativeId?: string | null };

/** A listing's digest, once per parsed listing (apps.ts keeps them per process, frozen). */
const digests = new WeakMap<Listing, string>();
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with each object's keys in order: a listing read back from jsonb has them in another order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );

/**
 * What the facts mean: a new value when the planner's refusals change (issue 33: a narrative's
 * `supported`, no generic smaller count; 3: near misses shipped with a warning, a short listing's
 * set ending on an ask; 5 (4 was ba1608f's, reverted): no hero echo or lone purpose over five slides, a
 * rating under 4.0 only as a warned last resort), so facts kept by the last release are planned anew.
 */
const FACTS_VERSION = 5;

/** The name of what facts are planned from: the listings and the guidance (and how they are planned). */
export function sourceOf(listings: Listing[], extraContext: string | null): string {
  const parts = listings.map((l) => {
    let d = digests.get(l);
    if (!d) digests.set(l, (d = sha(canonical(l))));
    return d;
  });
  return sha(JSON.stringify([FACTS_VERSION, parts, extraContext]));
}

/** The name of a request's facts: a narrative sets the count. */
const requestKey = (r: FactsRequest): string => `${r.device} ${r.captionStyle} ${r.captionLength} ${r.narrativeId || r.count}`;

/** Facts by source and request: they never change under their name, so any process may keep them. */
const known = new LRUCache<string, FillFacts>({ max: 20_000 });
/** The facts being planned on the thread now, by source and request: a create that needs them waits for them. */
const planning = new Map<string, Promise<FillFacts | undefined>>();
let plannedInRequest = 0;

/** Creates whose facts were planned inside the request, in this process (tests and the bench read it). */
export const factsPlannedInRequest = (): number => plannedInRequest;

/** Forgets the facts kept in memory, as a process that has not read them yet (tests and the bench). */
export const forgetKnownFacts = (): void => known.clear();

/**
 * The facts of `request` on these listings: from memory, else the app's stored ones, else the
 * sweep planning them now, else planned here (and kept for the next create).
 */
export async function factsFor(
  db: Queryable,
  accountId: string,
  appId: string,
  listings: Listing[],
  extraContext: string | null,
  request: FactsRequest,
): Promise<FillFacts> {
  const source = sourceOf(listings, extraContext);
  const name = requestKey(request);
  const kept = known.get(`${source} ${name}`);
  if (kept) return kept;
  const { rows } = await db.query<{ facts: FillFacts }>({
    name: 'fill-check',
    text: 'SELECT facts FROM app_fill_checks WHERE app_id = $1 AND account_id = $2 AND source = $3 AND request = $4',
    values: [appId, accountId, source, name],
  });
  const found = rows[0]?.facts ?? (await planning.get(`${source} ${name}`));
  if (found) {
    known.set(`${source} ${name}`, found);
    return found;
  }
  plannedInRequest++;
  const [facts] = await factsOffThread({ listings, extraContext }, [request]);
  known.set(`${source} ${name}`, facts);
  await keep(db, accountId, appId, source, new Map([[name, facts]]));
  return facts;
}

async function keep(db: Queryable, accountId: string, appId: string, source: string, facts: Map<string, FillFacts>): Promise<void> {
  await db.query(
    `INSERT INTO app_fill_checks (app_id, account_id, source, request, facts)
     SELECT $1, $2, $3, r, f FROM unnest($4::text[], $5::jsonb[]) AS x(r, f)
     ON CONFLICT DO NOTHING`,
    [appId, accountId, source, [...facts.keys()], [...facts.values()].map((f) => JSON.stringify(f))],
  );
}

/** The devices a set of these listings is likely asked for, the stores' largest phone first. */
function devicesOf(listings: Listing[]): Device[] {
  const stores = new Set(listings.map((l) => l.store));
  const first: Device[] = ['iphone-69', 'android-phone'];
  const all = [...first, ...(Object.keys(DEVICES) as Device[]).filter((d) => !first.includes(d))];
  // A Mac set is planned ahead only for a Mac listing: any other app's first Mac create plans it.
  const mac = listings.some((l) => l.platform === 'mac');
  return all.filter((d) => stores.has(DEVICES[d].store) && (mac || DEVICES[d].family !== 'mac'));
}

/**
 * The requests to plan ahead, in the thread's tasks: a device's every count and narrative of the
 * default voice and length, one device a task, and first, alone, the default set of the largest
 * phone, which a create asked as soon as its app exists waits for.
 */
function tasksOf(devices: Device[]): FactsRequest[][] {
  return devices.flatMap((device, i) => {
    const all = sweepRequests({ device, captionStyle: DEFAULT_CAPTION_STYLE, captionLength: DEFAULT_CAPTION_LENGTH }) as FactsRequest[];
    if (i > 0) return [all];
    const usual = all.find((r) => r.count === DEFAULT_COUNT && !r.narrativeId)!;
    return [[usual], all.filter((r) => r !== usual)];
  });
}

/** The tasks waiting for the planning thread in this process, one after another. */
let queue: Promise<void> = Promise.resolve();
let waiting = 0;
/** Past this many tasks waiting, an app's facts beyond its usual set are left to its first creates. */
const MAX_WAITING = 200;

export interface FillChecksPlanned {
  /** The largest phone's usual set is kept (planned at once, ahead of the queue): wait for it before answering. */
  usual: Promise<void>;
  /** Every fact planned ahead is kept. */
  all: Promise<void>;
}

/**
 * Plans an app's facts (call it when the app is created or its guidance changes), and deletes
 * those of the sources before the last one. Never rejects: a fact not planned ahead is planned by
 * the create that needs it.
 */
export function planFillChecks(
  db: Queryable,
  app: Pick<App, 'id' | 'accountId' | 'iosListing' | 'androidListing' | 'extraContext'>,
): FillChecksPlanned {
  const listings = [app.iosListing, app.androidListing].filter((l) => l !== null);
  const [first, ...rest] = tasksOf(devicesOf(listings));
  if (!first) return { usual: Promise.resolve(), all: Promise.resolve() };
  const source = sourceOf(listings, app.extraContext);
  const plan = async (requests: FactsRequest[]) => {
    const run = factsOffThread({ listings, extraContext: app.extraContext }, requests);
    const names = requests.map((r) => `${source} ${requestKey(r)}`);
    names.forEach((name, i) =>
      planning.set(
        name,
        run.then(
          (facts) => facts[i],
          () => undefined,
        ),
      ),
    );
    try {
      const facts = await run;
      names.forEach((name, i) => known.set(name, facts[i]));
      await keep(db, app.accountId, app.id, source, new Map(requests.map((r, i) => [requestKey(r), facts[i]])));
    } finally {
      for (const name of names) planning.delete(name);
    }
  };
  const usual = (async () => {
    try {
      // The source before this one stays: a process whose snapshot of the app is older still reads it.
      await db.query(
        `DELETE FROM app_fill_checks WHERE app_id = $1 AND account_id = $2 AND source <> $3 AND source <> (
           SELECT source FROM app_fill_checks WHERE app_id = $1 AND account_id = $2 AND source <> $3 ORDER BY created_at DESC LIMIT 1)`,
        [app.id, app.accountId, source],
      );
      await plan(first);
    } catch {
      // A pool closed by a teardown, or a listing the planner refuses: the creates plan what they need.
    }
  })();
  if (waiting + rest.length > MAX_WAITING) return { usual, all: usual };
  waiting += rest.length;
  const all = (queue = queue.then(async () => {
    let left = rest.length;
    try {
      await usual;
      for (const requests of rest) {
        left--;
        waiting--;
        await plan(requests);
      }
    } catch {
      // As above.
    } finally {
      waiting -= left;
    }
  }));
  return { usual, all };
}
