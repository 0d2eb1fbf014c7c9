/**
 * POST /previews while one account sends many: each account has a few on the way at once (then 429),
 * accounts take turns on the preview thread, and a preview waiting its turn holds no screen bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Previewer } from '../../../src/sets/revisions/preview.ts';
import type { RenderPool } from '../../../src/rendering/index.ts';
import { expectProblem } from '../../support/app.ts';
import { accountWithKey, insertApp } from '../../support/fixtures.ts';
import { until } from '../../support/jobs.ts';
import { scaled } from '../../support/timing.ts';
import { createPicturesApp, renderPool, type PicturesApp } from '../support.ts';
import { upload } from './support.ts';

let h: PicturesApp;
let appId: string;
let screenId: string;

beforeAll(async () => {
  h = await createPicturesApp({ previews: true, worker: false });
  appId = await insertApp(h.t.pool, h.account.id);
  screenId = await upload(h, appId, 'red');
}, scaled(60_000));
afterAll(async () => {
  await h?.close();
});

/** The real preview renderer, holding each preview at its door until `open()`; the headlines in the order they came. */
function gatedRenderer() {
  const arrived: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const renderer: Pick<RenderPool, 'preview' | 'close'> = {
    async preview(input, indices, ...rest) {
      arrived.push(input.slides[indices[0]].headline);
      await gate;
      return renderPool().preview(input, indices, ...rest);
    },
    close: async () => undefined,
  };
  return { renderer, arrived, open };
}

/** Where under `value` bytes are held: Buffers, typed arrays, ArrayBuffers. */
function bytesIn(value: unknown, at = '', seen = new Set<unknown>()): string[] {
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return [at || '(root)'];
  if (value === null || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  return Object.entries(value).flatMap(([k, v]) => bytesIn(v, `${at}/${k}`, seen));
}

describe('previews of several accounts at once', () => {
  it(
    'takes at most the account’s places (then 429), serves another account in turn, and what waits holds no screen bytes',
    async () => {
      const { renderer, arrived, open } = gatedRenderer();
      const previewer = new Previewer({
        db: h.t.pool,
        objects: h.services.objects,
        renderer,
        storeImageOrigins: [],
        queue: { perAccount: 3, running: 1 },
      });
      h.services.previews = previewer;
      const other = await accountWithKey(h.t.pool);
      const otherAuth = { authorization: `Bearer ${other.key}` };
      const otherApp = await insertApp(h.t.pool, other.account.id);
      const ask = (auth: Record<string, string>, app: string, headline: string, screen?: string) =>
        h.app.inject({
          method: 'POST',
          url: '/api/v1/public/v1/previews',
          headers: auth,
          payload: { appId: app, device: 'iphone-67', slide: { headline, ...(screen ? { screenId: screen } : {}) } },
        });

      // The first is being drawn (its screen read, at the renderer's door); two more wait.
      const first = ask(h.auth, appId, 'Plan Meals One', screenId);
      await until(async () => arrived.length === 1);
      const waiting = [ask(h.auth, appId, 'Plan Meals Two', screenId), ask(h.auth, appId, 'Plan Meals Three', screenId)];
      await until(async () => previewer.queue.queued.length === 2);

      // A fourth of the same account is refused at once, and nothing of it stays.
      const refused = await ask(h.auth, appId, 'Plan Meals Four', screenId);
      expectProblem(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(previewer.queue.queued).toHaveLength(2);

      // Another account is still taken, and is drawn before the first account's waiting ones.
      const theirs = ask(otherAuth, otherApp, 'Shop With One List');
      await until(async () => previewer.queue.queued.length === 3);
      expect(previewer.queue.queued.map((q) => q.accountId)).toEqual([h.account.id, h.account.id, other.account.id]);
      for (const q of previewer.queue.queued) {
        expect(bytesIn(q.plan)).toEqual([]);
        expect(JSON.stringify(q.plan).length).toBeLessThan(4_000);
      }
      expect(previewer.queue.drawing).toBe(1);

      open();
      const answers = await Promise.all([first, ...waiting, theirs]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect(answers.every((r) => r.rawPayload.subarray(1, 4).toString() === 'PNG')).toBe(true);
      expect(arrived).toEqual(['Plan Meals One', 'Shop With One List', 'Plan Meals Two', 'Plan Meals Three']);

      // Every place is given back: the account may send its four again.
      expect((await ask(h.auth, appId, 'Plan Meals Again', screenId)).statusCode).toBe(200);
    },
    scaled(60_000),
  );

  it('takes a waiting preview out of the queue when its client gives up', async () => {
    const { renderer, arrived, open } = gatedRenderer();
    const previewer = new Previewer({ db: h.t.pool, objects: h.services.objects, renderer, storeImageOrigins: [], queue: { running: 1 } });
    const drawn = previewer.forApp(h.account.id, { appId, device: 'iphone-67', slide: { headline: 'Plan Meals One' } });
    await until(async () => arrived.length === 1);
    const gone = new AbortController();
    const abandoned = previewer.forApp(h.account.id, { appId, device: 'iphone-67', slide: { headline: 'Plan Meals Two' } }, gone.signal);
    await until(async () => previewer.queue.queued.length === 1);
    gone.abort(new Error('client gone'));
    await expect(abandoned).rejects.toThrow('client gone');
    expect(previewer.queue.queued).toHaveLength(0);
    open();
    expect((await drawn).png.subarray(1, 4).toString()).toBe('PNG');
    expect(arrived).toEqual(['Plan Meals One']);
  });
});
