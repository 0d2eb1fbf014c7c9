/**
 * The dashboard in real Chromium (Debian's /usr/bin/chromium through playwright-core) against a
 * real listening server on a test database, with the real worker and the fake store server.
 * Screenshots of each page go to SCREENSHOT_DIR, else to a fresh temporary directory (named in the
 * output), never into the repository;
 * UPDATE_DOCS_SCREENSHOT=1 also refreshes docs/dashboard.png.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startService, type Service } from '../../src/service.ts';
import { ROOT } from '../cli/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { CHROMIUM, haveChromium, launchChromium } from '../support/chromium.ts';
import { startFakeStore, type FakeStore } from '../support/fake-store.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';
import { solidPng } from '../support/fake-images.ts';
import { sharedThreads } from '../support/threads.ts';
import { tier } from '../support/tiers.ts';
import { scaled } from '../support/timing.ts';

const chromiumTier = tier('Chromium', {
  available: haveChromium,
  missing: `${CHROMIUM} is absent (apt-get install chromium; .ci/run does)`,
});

const SHOTS = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-dashboard-shots-'));
const PASSWORD = 'correct horse battery';

chromiumTier('the dashboard in Chromium', () => {
  let t: TestDatabase;
  let store: FakeStore;
  let service: Service;
  let base: string;
  let config: ReturnType<typeof loadConfig>;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    const launched = launchChromium();
    t = await createTestDatabase();
    store = await startFakeStore();
    store.set('app-store', '1234567890', { body: lookupBody([lookupResult()], { raw: true }) });
    // The pictures go to a scratch DATA_DIR shared by the API and the worker service.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-dashboard-'));
    dirs.push(dataDir);
    config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      APP_STORE_LOOKUP_URL: store.appStoreLookupUrl,
      GOOGLE_PLAY_URL: store.googlePlayUrl,
    });
    // The API only: the test starts the worker itself, so that a set is seen queued first.
    service = await startService(config, {
      role: 'api',
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
      threads: sharedThreads(),
    });
    base = service.address!;
    browser = await launched;
  });

  afterAll(async () => {
    if (!process.env.SCREENSHOT_DIR) console.log(`[dashboard] screenshots of each page are in ${SHOTS} (SCREENSHOT_DIR picks another)`);
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    await service?.close();
    await store?.close();
    await t?.drop();
  });

  /** A browser context of its own (cookies, storage, permissions): one per person. */
  async function person(
    viewport = { width: 1100, height: 800 },
    javaScriptEnabled = true,
  ): Promise<{ context: BrowserContext; page: Page; cspErrors: string[] }> {
    const context = await browser.newContext({
      viewport,
      javaScriptEnabled,
      acceptDownloads: true,
    });
    contexts.push(context);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
    });
    return { context, page, cspErrors };
  }

  const axeSource = fs.readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

  /** Screenshot the page, and hold it to WCAG 2.1 AA with axe-core (labels, contrast, names, ...). */
  async function shot(page: Page, name: string, fullPage = true) {
    await page.screenshot({ path: path.join(SHOTS, `dashboard-${name}.png`), fullPage });
    // Evaluated through DevTools, which the page's CSP does not govern; the page itself runs no such script.
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (
        globalThis as unknown as { axe: { run(o: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }
      ).axe;
      const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    expect(violations, name).toEqual([]);
  }

  /**
   * The app icon whose picture the store's host did not serve looks like the app's initial alone
   * (the same pixels, give or take antialiasing), not a broken-image mark over it.
   */
  async function iconShowsInitial(page: Page) {
    const icon = page.locator('.app-head .icon');
    await expect
      .poll(() => icon.locator('img').evaluate((i) => ((i as HTMLImageElement).complete ? (i as HTMLImageElement).naturalWidth : -1)), {
        timeout: scaled(20_000),
      })
      .toBe(0);
    const shown = await sharp(await icon.screenshot())
      .raw()
      .toBuffer();
    await icon.locator('img').evaluate((i) => i.remove());
    const initial = await sharp(await icon.screenshot())
      .raw()
      .toBuffer();
    let diff = 0;
    for (let i = 0; i < shown.length; i++) diff += Math.abs(shown[i] - initial[i]);
    expect(diff / shown.length).toBeLessThan(1);
  }

  const api = (key: string, p = '/account') => fetch(`${base}/api/v1/public/v1${p}`, { headers: { authorization: `Bearer ${key}` } });

  let firstAppUrl = '';
  let firstSetUrl = '';

  it('sign up, create a key, read it once, call the API, revoke it in the browser, the next call is 401', async () => {
    const { page, cspErrors } = await person();
    await page.goto(`${base}/`);
    await expect.poll(() => page.url()).toBe(`${base}/sign-in`);
    await shot(page, 'sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill('first@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await shot(page, 'sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${base}/keys?welcome=1`);

    await page.getByLabel(/^Name/).fill('CI deploy');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByLabel('The new API key');
    const key = await secret.inputValue();
    expect(key).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    // The first call, key filled in, copied as one command that works when pasted in a terminal.
    await page.getByRole('button', { name: 'Copy command' }).click();
    const command = `curl -H 'Authorization: Bearer ${key}' ${base}/api/v1/public/v1/account`;
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    expect(await page.locator('[data-copy-status="first-call"]').textContent()).toContain('The command is on your clipboard');
    const pasted = await promisify(execFile)('sh', ['-c', await page.evaluate(() => navigator.clipboard.readText())]);
    expect(JSON.parse(pasted.stdout)).toMatchObject({ credits: { remaining: 50 } });
    await shot(page, 'key-created');

    expect((await api(key)).status).toBe(200);
    await page.goto(`${base}/keys`);
    expect(await page.content()).not.toContain(key);
    expect(await page.getByText(key.slice(0, 12)).count()).toBe(1);
    await shot(page, 'keys');

    await page.getByRole('link', { name: /Revoke CI deploy/ }).click();
    await shot(page, 'revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL(`${base}/keys`);
    await expect.poll(() => page.getByText('Revoked', { exact: true }).count()).toBe(1);
    const refused = await api(key);
    expect(refused.status).toBe(401);
    expect((await refused.json()).code).toBe('revoked_api_key');
    expect(cspErrors).toEqual([]);
  });

  it('add an app, upload its screens, create a set, watch it finish live, see its slides, download the ZIP', async () => {
    const { page, cspErrors } = await person();
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('Email').fill('first@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/keys`);

    await page.getByRole('link', { name: 'Apps and sets' }).click();
    await page.getByLabel('App Store URL').fill('https://apps.apple.com/us/app/pocket-planner/id1234567890');
    await shot(page, 'apps');
    await page.getByRole('button', { name: 'Add app' }).click();
    await page.waitForURL(/\/apps\/app_/);
    firstAppUrl = page.url();
    await expect.poll(() => page.getByRole('heading', { name: 'Pocket Planner' }).count()).toBe(1);

    // The app's own screens: the set frames them rather than the listing's marketing images.
    await page.getByLabel('Screens to upload').setInputFiles([
      { name: 'home.png', mimeType: 'image/png', buffer: await solidPng(1290, 2796, 'green') },
      { name: 'list.png', mimeType: 'image/png', buffer: await solidPng(1290, 2796, 'blue') },
    ]);
    await page.getByRole('button', { name: 'Upload screens', exact: true }).click();
    await page.waitForURL(/#screens$/);
    await expect
      .poll(() => page.locator('.screens img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth)))
      .toEqual([1290, 1290]);
    // Said, and counted in the right number.
    expect(await page.getByRole('status').filter({ hasText: 'Uploaded 2 screens' }).count()).toBe(1);
    // The store's icon host is not reachable from here: the app's initial shows, not a broken image.
    expect(await page.locator('.app-head .icon-initial').textContent()).toBe('P');
    await shot(page, 'app-uploaded');
    await iconShowsInitial(page);

    // The guidance for the captions is edited on the app's page, by a plain form.
    await page.getByLabel(/What the app does/).fill('Plan your week in minutes. Share plans with your family.');
    await page.getByRole('button', { name: 'Save guidance' }).click();
    await page.waitForURL(/saved=guidance/);
    expect(await page.getByText('Guidance saved').count()).toBe(1);

    await page.getByLabel('Device').selectOption('iphone-69');
    await page.getByLabel('Voice').selectOption('playful');
    expect(await page.locator('#captionStyle-hint').textContent()).toContain('Light, warm');
    await page.getByRole('spinbutton', { name: /Slides/ }).fill('3');
    await shot(page, 'app');
    await page.getByRole('button', { name: /Create set/ }).click();
    await page.waitForURL(/\/sets\/job_/);
    firstSetUrl = page.url();
    expect(await page.getByRole('status').first().textContent()).toContain('Queued');
    await shot(page, 'set-queued');

    // Now a worker process's service takes the job; the page's script notices and shows the
    // result by itself.
    const worker = await startService(config, {
      role: 'worker',
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
      threads: sharedThreads(),
    });
    try {
      await page.waitForSelector('.gallery figure', { timeout: scaled(20_000) });
    } finally {
      await worker.close();
    }
    const { result } = (await t.pool.query('SELECT result FROM jobs')).rows[0];
    expect(await page.locator('.gallery figure').count()).toBe(result.slides.length);
    // The rendered PNGs themselves, loaded through their signed URLs.
    await expect
      .poll(() => page.locator('.gallery img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth)))
      .toEqual(result.slides.map(() => 1320));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download ZIP' }).click()]);
    const zip = fs.readFileSync((await download.path())!);
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.length).toBeGreaterThan(result.slides.length * 10_000);
    expect(await page.getByText('Done', { exact: true }).count()).toBe(1);
    await shot(page, 'set-done');
    if (process.env.UPDATE_DOCS_SCREENSHOT === '1')
      await page.screenshot({ path: path.join(ROOT, 'docs', 'dashboard.png'), fullPage: false });

    await page.getByRole('link', { name: 'Usage' }).click();
    await expect.poll(() => page.locator('dd').nth(2).textContent()).toBe('5');
    await shot(page, 'usage');
    expect(cspErrors).toEqual([]);
  });

  it('without JavaScript, an app icon the store does not serve shows the app’s initial', async () => {
    const { page } = await person(undefined, false);
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('Email').fill('first@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/keys`);
    await page.goto(firstAppUrl);
    await iconShowsInitial(page);
  });

  it('reads well on a phone', async () => {
    const { page } = await person({ width: 390, height: 844 });
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('Email').fill('first@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/keys`);
    // Nothing wider than the screen: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'phone-keys');
    await page.goto(firstSetUrl);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'phone-set');
  });

  it('an app not in a store yet: made from its listing text, its icon uploaded, its page offers the store page', async () => {
    const { page, cspErrors } = await person();
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('Email').fill('first@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/keys`);
    await page.goto(`${base}/apps`);
    await page.getByLabel('App name').fill('Fernly');
    await page.getByLabel('Subtitle').fill('Plant care made simple');
    await page.getByLabel(/^Description/).fill('Fernly keeps your houseplants alive.\n• Get watering reminders for every plant');
    await page.getByLabel('Category').selectOption('Lifestyle');
    await page.getByRole('button', { name: 'Create app from listing' }).click();
    await page.waitForURL(/\/apps\/app_/);
    expect(await page.locator('.app-head').getByText('not in a store yet').count()).toBe(1);
    await page
      .getByLabel('Icon to upload')
      .setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: await solidPng(1024, 1024, 'green') });
    await page.getByRole('button', { name: 'Upload icon' }).click();
    await page.waitForURL(/#app-icon$/);
    // The uploaded icon is the app's icon on its page, served by the dashboard itself.
    await expect.poll(() => page.locator('.app-head .icon img').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(1024);
    expect(await page.getByRole('heading', { name: 'Store page' }).count()).toBe(1);
    await shot(page, 'app-before-launch');
    expect(cspErrors).toEqual([]);
  });

  it('a second user cannot open the first one’s pages, and a form without its CSRF token is refused', async () => {
    const { page } = await person();
    await page.goto(`${base}/sign-up`);
    await page.getByLabel('Email').fill('second@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/keys/);
    for (const url of [firstAppUrl, firstSetUrl, `${firstSetUrl}/status`]) {
      const res = await page.goto(url);
      expect(res?.status(), url).toBe(404);
      expect(await page.content()).not.toContain('Pocket Planner');
    }
    await page.goto(firstAppUrl);
    await shot(page, 'not-found');

    await page.goto(`${base}/keys`);
    await page.locator('form[action="/keys"] input[name="_csrf"]').evaluate((input) => input.remove());
    await page.getByLabel(/^Name/).fill('forged');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${base}/keys` && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Create key' }).click(),
    ]);
    expect(response.status()).toBe(403);
    await expect.poll(() => page.getByRole('heading', { name: 'Form expired' }).count()).toBe(1);
    await shot(page, 'csrf-refused');
    const { rows } = await t.pool.query(`SELECT count(*)::int AS n FROM api_keys WHERE name = 'forged'`);
    expect(rows[0].n).toBe(0);
  });
});
