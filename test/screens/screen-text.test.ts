/** Each uploaded screen is read once, off the HTTP thread, and GET …/screens shows its text. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { appScreenPng } from '../support/app-screens.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { waitForScreenText } from '../../src/screens/screens.ts';
import { scaled } from '../support/timing.ts';

// The OCR thread's first start loads tsx, its modules and two ONNX models: a fixed 60 s failed on
// a loaded machine (load 35-48). Scaled like every deadline: it only reports a hung reader.
const WAIT_MS = scaled(60_000);

let h: TestApp;
let appId: string;
beforeEach(async () => {
  h = await createTestApp({ screenReader: true });
  appId = await insertApp(h.t.pool, h.account.id);
});
afterEach(async () => h.close());

const url = () => `/api/v1/public/v1/apps/${appId}/screens`;
const budgets = () =>
  appScreenPng({ title: 'Budgets', rows: ['Groceries $420 of $500', 'Rent $1,200'], tabs: ['Overview', 'Budgets', 'Reports'] });

describe('screen text', () => {
  it('answers the upload before reading, then shows what OCR read in the list', async () => {
    const res = await h.app.inject({ method: 'POST', url: url(), headers: { ...h.auth, 'content-type': 'image/png' }, payload: budgets() });
    expect(res.statusCode).toBe(201);
    const { screenId } = res.json();
    // The upload did not wait: the row is pending and its text null until the thread is done.
    expect(res.json().text).toBeNull();
    const read = await waitForScreenText(h.t.pool, h.account.id, [screenId], { timeoutMs: WAIT_MS, pollMs: 50 });
    expect(read.unread).toEqual([]);
    const list = await h.app.inject({ method: 'GET', url: url(), headers: h.auth });
    const [screen] = list.json().screens;
    expect(screen.text).toEqual(expect.arrayContaining(['Budgets', 'Groceries $420 of $500', 'Rent $1,200']));
    const { rows } = await h.t.pool.query('SELECT text_status FROM screens WHERE id = $1', [screenId]);
    expect(rows[0].text_status).toBe('read');
  });

  it('reads one picture once: the same bytes uploaded again, at once or later, take the first reading', async () => {
    const upload = async () =>
      (await h.app.inject({ method: 'POST', url: url(), headers: { ...h.auth, 'content-type': 'image/png' }, payload: budgets() })).json()
        .screenId as string;
    const ids = await Promise.all([upload(), upload()]);
    await waitForScreenText(h.t.pool, h.account.id, ids, { timeoutMs: WAIT_MS, pollMs: 50 });
    ids.push(await upload());
    const read = await waitForScreenText(h.t.pool, h.account.id, ids, { timeoutMs: WAIT_MS, pollMs: 50 });
    expect(read.unread).toEqual([]);
    expect(read.screens[0].text).toEqual(expect.arrayContaining(['Budgets', 'Rent $1,200']));
    expect(read.screens.map((s) => s.text)).toEqual([read.screens[0].text, read.screens[0].text, read.screens[0].text]);
    expect(h.services.screenReader!.modelReads).toBe(1);
    // Another account's copy is read again: how soon its text appears tells it nothing of ours.
    const other = await accountWithKey(h.t.pool);
    const otherApp = await insertApp(h.t.pool, other.account.id);
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/v1/public/v1/apps/${otherApp}/screens`,
      headers: { authorization: `Bearer ${other.key}`, 'content-type': 'image/png' },
      payload: budgets(),
    });
    await waitForScreenText(h.t.pool, other.account.id, [res.json().screenId], { timeoutMs: WAIT_MS, pollMs: 50 });
    expect(h.services.screenReader!.modelReads).toBe(2);
  });

  it('marks a screen it cannot read as failed: a job waits no more for it', async () => {
    const res = await h.app.inject({ method: 'POST', url: url(), headers: { ...h.auth, 'content-type': 'image/png' }, payload: budgets() });
    const { screenId } = res.json();
    await waitForScreenText(h.t.pool, h.account.id, [screenId], { timeoutMs: WAIT_MS, pollMs: 50 });
    await h.t.pool.query("UPDATE screens SET text = NULL, text_status = 'pending' WHERE id = $1", [screenId]);
    await h.services.screenReader!.read(screenId, Buffer.from('not an image'));
    const read = await waitForScreenText(h.t.pool, h.account.id, [screenId], { timeoutMs: 0 });
    expect(read).toEqual({ screens: [{ screenId, text: null }], unread: [], failed: [screenId] });
  });
});
