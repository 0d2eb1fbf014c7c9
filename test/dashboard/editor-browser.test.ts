/**
 * The set editor in real Chromium, with JavaScript (live preview, reorder in place) and without
 * (the form and its up/down buttons): edit a caption, reorder, swap a screen, save; the revision's
 * PNGs differ from the parent's exactly where edited and are byte-identical elsewhere. Then a theme
 * change. A set in two locales: a German caption edited from its language tab, saved; only that
 * slide is new. Screenshots of the editor at 1280 and 390 px go to SCREENSHOT_DIR (UPDATE_DOCS_SCREENSHOT=1: docs/).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createScreenshotSet } from '../../src/sets/create.ts';
import { FileObjectStore } from '../../src/objects/filesystem.ts';
import { uploadScreen } from '../../src/screens/screens.ts';
import { startService, type Service } from '../../src/service.ts';
import { ROOT } from '../cli/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { solidPng } from '../support/fake-images.ts';
import { insertApp } from '../support/fixtures.ts';
import { CHROMIUM, haveChromium, launchChromium } from '../support/chromium.ts';
import { sharedThreads } from '../support/threads.ts';
import { tier } from '../support/tiers.ts';
import { scaled } from '../support/timing.ts';
import { startFakeLlm, translator, type FakeLlm } from '../support/fake-llm.ts';

// Screenshots only where asked for: SCREENSHOT_DIR (or UPDATE_DOCS_SCREENSHOT=1 for docs/).
const SHOTS = process.env.SCREENSHOT_DIR ?? null;
const PASSWORD = 'correct horse battery';
const CAPTIONS = ['Plan Every Meal Fast', 'Shop With One List', 'Cook Without Stress', 'Share Recipes Easily'];

// A tier, not a plain skip: in CI a missing Chromium fails the run instead of passing green.
const chromiumTier = tier('Chromium', {
  available: haveChromium,
  missing: `${CHROMIUM} is absent (apt-get install chromium; .ci/run does)`,
});

chromiumTier('the set editor in Chromium', () => {
  let t: TestDatabase;
  let service: Service;
  let base: string;
  let objects: FileObjectStore;
  let objectsDir: string;
  let llm: FakeLlm;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const dirs: string[] = [];
  const axeSource = fs.readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

  beforeAll(async () => {
    const launched = launchChromium();
    t = await createTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-editor-'));
    dirs.push(dataDir);
    objectsDir = path.join(dataDir, 'objects');
    objects = new FileObjectStore(objectsDir);
    // Translates into German for the two-locale set; the sets of own captions never ask it.
    llm = await startFakeLlm(translator({ 'de-DE': (_h, i) => `Plane die Woche ${i + 1}` }));
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      WORKER_CONCURRENCY: '2',
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'm',
    });
    service = await startService(config, {
      role: 'all',
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
      // The process's render threads (../support/threads.ts); the planner is the service's, with its model.
      threads: sharedThreads({ model: true }),
    });
    base = service.address!;
    browser = await launched;
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await service?.close();
    await llm?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    await t?.drop();
  });

  async function person(email: string, opts: { width?: number; javaScriptEnabled?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: opts.width ?? 1280, height: 900 },
      javaScriptEnabled: opts.javaScriptEnabled ?? true,
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${base}/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/keys/);
    return page;
  }

  async function axe(page: Page, name: string) {
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `dashboard-${name}.png`), fullPage: true });
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const a = (
        globalThis as unknown as { axe: { run(o: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }
      ).axe;
      const result = await a.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    expect(violations, name).toEqual([]);
  }

  /** A rendered four-slide set of the person's account, framing three uploaded screens. */
  async function renderedSet(email: string) {
    const { rows } = await t.pool.query<{ account_id: string }>('SELECT account_id FROM users WHERE email = $1', [email]);
    const accountId = rows[0].account_id;
    const appId = await insertApp(t.pool, accountId);
    const screens: string[] = [];
    for (const c of ['red', 'blue', 'green'])
      screens.push((await uploadScreen(t.pool, objects, accountId, appId, await solidPng(1290, 2796, c))).screenId);
    const slides = CAPTIONS.map((headline, i) => ({ headline, screenId: screens[i % 3] }));
    const { body } = await createScreenshotSet(t.pool, accountId, { appId, device: 'iphone-67', slides }, { now: new Date() });
    return { jobId: body.jobId, screens: await waitDone(body.jobId).then(() => screens) };
  }

  async function waitDone(jobId: string) {
    await expect
      .poll(async () => (await t.pool.query('SELECT status FROM jobs WHERE id = $1', [jobId])).rows[0].status, { timeout: scaled(60_000) })
      .toBe('succeeded');
  }

  /** Each slide PNG of a job, by its number (`under`: a locale's folder, e.g. `locales/de-DE/`). */
  async function pngs(jobId: string, under = ''): Promise<Buffer[]> {
    const { rows } = await t.pool.query<{ name: string; object_key: string }>(
      `SELECT name, object_key FROM job_files WHERE job_id = $1 AND name LIKE $2 ORDER BY length(name), name`,
      [jobId, `${under}slides/%`],
    );
    return Promise.all(rows.map((r) => fs.promises.readFile(path.join(objectsDir, r.object_key))));
  }

  /** Nothing wider than a 390 px screen; what sticks out is named when something does. */
  async function fitsPhone(page: Page) {
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 391 || e.scrollWidth > Math.max(e.clientWidth, 1) + 1)
        .map(
          (e) =>
            `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${String(e.className).replace(/ /g, '.')} (${Math.round(e.getBoundingClientRect().right)} px, ${e.scrollWidth}/${e.clientWidth})`,
        )
        .slice(0, 6),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth), wide.join(', ')).toBeLessThanOrEqual(390);
  }

  async function samePixels(a: Buffer, b: Buffer): Promise<boolean> {
    const [x, y] = await Promise.all([a, b].map((p) => sharp(p).raw().toBuffer()));
    return x.equals(y);
  }

  async function newJobId(page: Page, parent: string): Promise<string> {
    await page.waitForURL((u) => /\/sets\/job_/.test(u.pathname) && !u.pathname.includes(parent));
    return new URL(page.url()).pathname.split('/')[2];
  }

  for (const js of [true, false]) {
    it(
      `${js ? 'with' : 'without'} JavaScript: edit a caption, reorder, swap a screen, save; only the edited slides are new`,
      async () => {
        const email = `editor-${js ? 'js' : 'nojs'}@example.com`;
        const page = await person(email, { javaScriptEnabled: js });
        const set = await renderedSet(email);
        await page.goto(`${base}/sets/${set.jobId}`);
        const cspErrors: string[] = [];
        page.on('console', (m) => {
          if (/Content Security Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
        });
        await page.getByLabel('Headline', { exact: true }).nth(1).fill('Shop From One List');
        if (js) {
          // The live preview of slide 2 appears with its fit.
          await expect
            .poll(() => page.locator('[data-preview="2"]').evaluate((i) => (i as HTMLImageElement).naturalWidth), {
              timeout: scaled(20_000),
            })
            .toBe(430);
          expect(await page.locator('[data-fit="2"]').textContent()).toContain('fits');
          await page.getByRole('button', { name: 'Move slide 4 up' }).click();
          expect(await page.locator('[data-order]').inputValue()).toBe('1,2,4,3');
          // Dragging does the same: slide 1 dropped on slide 2 goes after it, and back again. The drag
          // events are dispatched (headless Chromium starts no native drag from a mouse gesture here).
          const drag = async (from: string, to: string) => {
            const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
            await page.locator(`li[data-slide="${from}"] fieldset`).dispatchEvent('dragstart', { dataTransfer });
            await page.locator(`li[data-slide="${to}"] fieldset`).dispatchEvent('dragover', { dataTransfer });
            await page.locator(`li[data-slide="${to}"] fieldset`).dispatchEvent('drop', { dataTransfer });
          };
          await drag('1', '2');
          expect(await page.locator('[data-order]').inputValue()).toBe('2,1,4,3');
          await drag('1', '2');
          expect(await page.locator('[data-order]').inputValue()).toBe('1,2,4,3');
          await axe(page, 'editor-1280');
          if (process.env.UPDATE_DOCS_SCREENSHOT === '1')
            await page.screenshot({ path: path.join(ROOT, 'docs', 'editor-1280.png'), fullPage: true });
        } else {
          await page.getByRole('button', { name: 'Move slide 4 up' }).click();
          await expect.poll(() => page.locator('[data-order]').inputValue()).toBe('1,2,4,3');
          // The round trip kept the edit.
          expect(await page.getByLabel('Headline', { exact: true }).nth(1).inputValue()).toBe('Shop From One List');
        }
        await page.locator('#screen-1').selectOption(set.screens[1]);
        await page.getByRole('button', { name: 'Save as revision' }).click();
        const child = await newJobId(page, set.jobId);
        await waitDone(child);
        const [before, after] = [await pngs(set.jobId), await pngs(child)];
        expect(after).toHaveLength(4);
        // New order: parent 1 (screen swapped), 2 (caption edited), 4, 3. A moved slide takes the
        // layout of its new place (the rhythm follows the order): the same bytes when that layout is
        // its old one, drawn again when it is not.
        expect(await samePixels(after[0], before[0])).toBe(false);
        expect(await samePixels(after[1], before[1])).toBe(false);
        const layouts = async (id: string) =>
          (
            await t.pool.query<{ result: { slides: { layout: string }[] } }>('SELECT result FROM jobs WHERE id = $1', [id])
          ).rows[0].result.slides.map((s) => s.layout);
        const [was, now] = [await layouts(set.jobId), await layouts(child)];
        expect(after[2].equals(before[3])).toBe(now[2] === was[3]);
        expect(after[3].equals(before[2])).toBe(now[3] === was[2]);
        await page.goto(`${base}/sets/${child}`);
        expect(await page.getByText('revision of').count()).toBeGreaterThan(0);
        expect(cspErrors).toEqual([]);

        // A theme for the whole set renders every slide again.
        await page.getByLabel('Theme', { exact: true }).selectOption('panoramic');
        await page.getByRole('button', { name: 'Save as revision' }).click();
        const themed = await newJobId(page, child);
        await waitDone(themed);
        const again = await pngs(themed);
        for (let i = 0; i < 4; i++) expect(await samePixels(again[i], after[i])).toBe(false);
      },
      scaled(120_000),
    );
  }

  it(
    'a set in English and German: edit a German caption from its tab, save; only that slide is new, English is byte-identical',
    async () => {
      const email = 'editor-locales@example.com';
      const page = await person(email);
      const { rows } = await t.pool.query<{ account_id: string }>('SELECT account_id FROM users WHERE email = $1', [email]);
      const accountId = rows[0].account_id;
      const appId = await insertApp(t.pool, accountId);
      const screens: string[] = [];
      for (const c of ['red', 'blue'])
        screens.push((await uploadScreen(t.pool, objects, accountId, appId, await solidPng(1290, 2796, c))).screenId);
      const { body } = await createScreenshotSet(
        t.pool,
        accountId,
        { appId, device: 'iphone-67', count: 2, locales: ['en-US', 'de-DE'], screenIds: screens },
        { now: new Date(), canTranslate: true },
      );
      await waitDone(body.jobId);
      const parent = body.jobId;
      const cspErrors: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
      });

      // Without JavaScript a tab is a link: the page of that language, its captions in view.
      await page.goto(`${base}/sets/${parent}?locale=de-DE`);
      expect(await page.locator('#headline-1-de-DE').isVisible()).toBe(true);
      expect(await page.locator('#headline-1').isVisible()).toBe(false);
      await page.goto(`${base}/sets/${parent}`);
      const tabs = page.getByRole('navigation', { name: 'Languages of this set' });
      expect(await tabs.getByRole('link').allTextContents()).toEqual(['English (United States) en-US', 'German (Germany) de-DE']);
      await expect.poll(() => page.locator('#headline-1').isVisible()).toBe(true);
      expect(await page.locator('#headline-1-de-DE').isVisible()).toBe(false);

      // With it, the tab switches in place, by keyboard, and keeps what was typed.
      await tabs.getByRole('link', { name: /German/ }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#headline-1-de-DE').isVisible()).toBe(true);
      expect(new URL(page.url()).search).toBe('?locale=de-DE');
      expect(await tabs.getByRole('link', { name: /German/ }).getAttribute('aria-current')).toBe('page');
      expect(await page.locator('#headline-1-de-DE').inputValue()).toBe('Plane die Woche 1');
      await page.locator('#headline-1-de-DE').fill('Plane den Monat 1');
      // The live preview is of the German slide as edited.
      await expect
        .poll(() => page.locator('[data-preview="1"]').evaluate((i) => (i as HTMLImageElement).naturalWidth), { timeout: scaled(20_000) })
        .toBe(430);
      expect(await page.locator('[data-fit="1"]').textContent()).toContain('fits');
      await axe(page, 'editor-locales');
      if (process.env.UPDATE_DOCS_SCREENSHOT === '1')
        await page.screenshot({ path: path.join(ROOT, 'docs', 'editor-locales-1280.png'), fullPage: true });
      // The tabs wrap on a phone; the German captions stay in view.
      await page.setViewportSize({ width: 390, height: 900 });
      await fitsPhone(page);
      expect(await page.locator('#headline-1-de-DE').isVisible()).toBe(true);
      await axe(page, 'editor-locales-390');
      if (process.env.UPDATE_DOCS_SCREENSHOT === '1')
        await page.locator('main').screenshot({ path: path.join(ROOT, 'docs', 'editor-locales-390.png') });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole('button', { name: 'Save as revision' }).click();
      const child = await newJobId(page, parent);
      await waitDone(child);

      const [enBefore, enAfter] = [await pngs(parent), await pngs(child)];
      const [deBefore, deAfter] = [await pngs(parent, 'locales/de-DE/'), await pngs(child, 'locales/de-DE/')];
      expect([enAfter.length, deAfter.length]).toEqual([2, 2]);
      for (let i = 0; i < 2; i++) expect(enAfter[i].equals(enBefore[i]), `en-US slide ${i + 1}`).toBe(true);
      expect(await samePixels(deAfter[0], deBefore[0])).toBe(false);
      expect(deAfter[1].equals(deBefore[1])).toBe(true);
      const { rows: saved } = await t.pool.query<{ request: { revision: { plan: { locales: { slides: { headline: string }[] }[] } } } }>(
        'SELECT request FROM jobs WHERE id = $1',
        [child],
      );
      expect(saved[0].request.revision.plan.locales[1].slides[0].headline).toBe('Plane den Monat 1');
      expect(cspErrors).toEqual([]);
    },
    scaled(120_000),
  );

  it(
    'is usable at 390 px: nothing wider than the screen, axe-clean',
    async () => {
      const email = 'editor-phone@example.com';
      const page = await person(email, { width: 390 });
      const set = await renderedSet(email);
      await page.goto(`${base}/sets/${set.jobId}`);
      await fitsPhone(page);
      await axe(page, 'editor-390');
      if (process.env.UPDATE_DOCS_SCREENSHOT === '1')
        await page.screenshot({ path: path.join(ROOT, 'docs', 'editor-390.png'), fullPage: true });
    },
    scaled(120_000),
  );
});
