/**
 * A set's screens are loaded once each into shared memory: posted to a rendering thread for every
 * slide that frames them, a SharedArrayBuffer is not copied on the thread that answers HTTP. Only
 * the bench would show a revert to plain buffers; this pins it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../src/objects/index.ts';
import { loadScreens } from '../../src/sets/render.ts';
import { solidPng } from '../support/fake-images.ts';
import { slide } from '../rendering/support.ts';

let uploaded: Buffer;
let fetched: Buffer;
let server: http.Server;
let origin: string;

beforeAll(async () => {
  uploaded = await solidPng(1290, 2796, 'blue');
  fetched = await solidPng(1290, 2796, 'red');
  server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(fetched));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const job = { id: 'job_1', accountId: 'acc_1', appId: 'app_1', attempt: 1, device: 'iphone-69', screenIds: null } as const;
// The screens table's row for scr_1.
const db = { query: async () => ({ rows: [{ id: 'scr_1', family: 'iphone', object_key: 'screens/1.png' }] }) } as never;

describe('loadScreens', () => {
  it('puts an uploaded and a fetched screen in shared memory, each loaded once for every slide that shows it', async () => {
    let reads = 0;
    // The stored screen arrives in several chunks, as a file or S3 body does.
    const objects = {
      async get() {
        reads++;
        const chunks = [uploaded.subarray(0, 1000), uploaded.subarray(1000, 70_000), uploaded.subarray(70_000)];
        return { body: Readable.from(chunks), bytes: uploaded.length };
      },
    } as unknown as ObjectStore;
    const slides = [
      slide(1, 'Plan your week', 'device-bottom', { screenId: 'scr_1' }),
      slide(2, 'Share a list', 'device-bottom', { screenshotUrl: `${origin}/shot.png` }),
      slide(3, 'Plan again', 'device-bottom', { screenId: 'scr_1' }),
      slide(4, 'Only words', 'text-only'),
    ];
    const screens = await loadScreens({ db, objects, storeImageOrigins: [origin] }, job, slides, new AbortController().signal);
    expect(screens[3]).toBeNull();
    for (const s of screens.slice(0, 3)) expect(s!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(screens[0]!.equals(uploaded)).toBe(true);
    expect(screens[1]!.equals(fetched)).toBe(true);
    expect(screens[2]).toBe(screens[0]);
    expect(reads).toBe(1);
  });

  it('refuses a stored screen longer than the size it was stored with', async () => {
    const objects = {
      async get() {
        return { body: Readable.from([uploaded]), bytes: uploaded.length - 1 };
      },
    } as unknown as ObjectStore;
    await expect(
      loadScreens(
        { db, objects, storeImageOrigins: [] },
        job,
        [slide(1, 'Plan your week', 'device-bottom', { screenId: 'scr_1' })],
        new AbortController().signal,
      ),
    ).rejects.toThrow(/longer than the \d+ bytes it was stored with/);
  });
});
