/**
 * An app's first POST /public/v1/screenshots, which used to plan the set inside the request (issue
 * 32: 7.9-9.8 s at load 15-20, a repeat 0.01-0.03 s). Part of `npm run bench`, against its role-api
 * service: each round creates an app (POST /public/v1/apps, from a fake App Store in this process,
 * a listing of the caption corpus the service has not seen), asks for its first set at once, then
 * again (a repeat), and waits GAP_MS for the service to settle before the next app.
 *
 * `fakeAppStore()` is started before the service, which reads it through APP_STORE_LOOKUP_URL.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { corpus } from '../test/planning/corpus/index.ts';
import { startFakeStore, type FakeStore } from '../test/support/fake-store.ts';
import { lookupBody, lookupResult } from '../test/support/store-fixtures.ts';
import { percentile } from './load.ts';

const APPS = Number(process.env.BENCH_FIRST_CREATES ?? 15);
const GAP_MS = 2_000;
const FIRST_ID = 700_000_000;

/** A fake App Store answering for APPS ids, each with another listing of the corpus. */
export async function fakeAppStore(): Promise<FakeStore> {
  const store = await startFakeStore();
  corpus()
    .slice(0, APPS)
    .forEach(({ listing }, i) => {
      const trackId = FIRST_ID + i;
      const result = lookupResult({
        trackId,
        trackName: listing.name,
        description: listing.description,
        primaryGenreName: listing.category,
        averageUserRating: listing.rating ?? undefined,
        userRatingCount: listing.ratingCount ?? undefined,
        price: listing.price,
        trackViewUrl: `https://apps.apple.com/us/app/id${trackId}?uo=4`,
      });
      store.set('app-store', String(trackId), { body: lookupBody([result], { raw: true }) });
    });
  return store;
}

export interface FirstCreates {
  apps: number;
  appMs: number[];
  firstMs: number[];
  repeatMs: number[];
  statuses: Record<number, number>;
}

export async function benchFirstCreates(
  base: string,
  headers: Record<string, string>,
  progress: (m: string) => void,
): Promise<FirstCreates> {
  progress(`first creates: ${APPS} new apps, each's first POST /screenshots at once, ${GAP_MS} ms apart`);
  const json = { ...headers, 'content-type': 'application/json' };
  const out: FirstCreates = { apps: 0, appMs: [], firstMs: [], repeatMs: [], statuses: {} };
  const timed = async (url: string, body: object): Promise<{ ms: number; status: number; text: string }> => {
    const t = performance.now();
    const res = await fetch(url, { method: 'POST', headers: json, body: JSON.stringify(body) });
    const text = await res.text();
    return { ms: performance.now() - t, status: res.status, text };
  };
  for (let i = 0; i < APPS; i++) {
    const app = await timed(`${base}/apps`, { iosUrl: `https://apps.apple.com/us/app/x/id${FIRST_ID + i}` });
    if (app.status !== 200) throw new Error(`POST /apps answered ${app.status}: ${app.text}`);
    const appId = (JSON.parse(app.text) as { appId: string }).appId;
    // The corpus's listings fill 5 slides or are refused before the charge: either answer is the check's.
    const set = { appId, device: 'iphone-69', count: 5 };
    const first = await timed(`${base}/screenshots`, set);
    const repeat = await timed(`${base}/screenshots`, set);
    for (const r of [first, repeat]) {
      if (r.status !== 201 && r.status !== 422) throw new Error(`POST /screenshots answered ${r.status}: ${r.text}`);
      out.statuses[r.status] = (out.statuses[r.status] ?? 0) + 1;
    }
    out.apps++;
    out.appMs.push(app.ms);
    out.firstMs.push(first.ms);
    out.repeatMs.push(repeat.ms);
    await sleep(GAP_MS);
  }
  for (const list of [out.appMs, out.firstMs, out.repeatMs]) list.sort((a, b) => a - b);
  return out;
}

/** One line of the report. */
export function firstCreatesLine(r: FirstCreates): string {
  const f = (ms: number[]) =>
    `p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms, max ${ms[ms.length - 1].toFixed(0)} ms`;
  return `first creates (${r.apps} new apps, role api): POST /apps ${f(r.appMs)}; its first POST /screenshots at once ${f(r.firstMs)}; a repeat ${f(r.repeatMs)}; answers ${JSON.stringify(r.statuses)}`;
}
