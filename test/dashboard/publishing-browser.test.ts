/**
 * Publishing in real Chromium against a listening dashboard and the fake App Store Connect:
 * connect a key (the .p8 chosen as a file), publish a set from its page, watch the plan appear by
 * itself, approve, watch it go live; the same without JavaScript (refresh links, the plain form);
 * each page held to WCAG 2.1 AA by axe-core and to 390 px without sideways scrolling.
 * UPDATE_DOCS_SCREENSHOT=1 writes docs/publishing-*.png at 1280 px.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.ts';
import { CHROMIUM, haveChromium, launchChromium } from '../support/chromium.ts';
import { scaled } from '../support/timing.ts';
import { tier } from '../support/tiers.ts';
import { ASC_APP, dashboardPublishing, finishedSet, type DashboardPublishing } from './publishing-support.ts';

const chromiumTier = tier('Chromium', {
  available: haveChromium,
  missing: `${CHROMIUM} is absent (apt-get install chromium; .ci/run does)`,
});
const DOCS = process.env.UPDATE_DOCS_SCREENSHOT === '1';
// The phone-sized ones are for looking at, not for the repository.
const SHOTS = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-publishing-shots-'));
const PASSWORD = 'correct horse battery';
const HEADLINES = ['Plan your week in a minute', 'Every list in one place', 'Share with the family'];

chromiumTier('publishing in Chromium', () => {
  let p: DashboardPublishing;
  let base: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const axeSource = fs.readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

  beforeAll(async () => {
    const launched = launchChromium();
    p = await dashboardPublishing({ runAtOnce: true });
    base = await p.h.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launched;
  });
  afterAll(async () => {
    if (!process.env.SCREENSHOT_DIR) console.log(`[publishing] phone-sized screenshots are in ${SHOTS}`);
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await p?.close();
  });

  async function person(javaScriptEnabled = true): Promise<{ page: Page; cspErrors: string[] }> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      javaScriptEnabled,
    });
    contexts.push(context);
    const page = await context.newPage();
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
    });
    return { page, cspErrors };
  }

  /** WCAG 2.1 AA by axe-core, at 1280 px and at 390 px (where nothing may be wider than the screen). */
  async function check(page: Page, name: string) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      if (width === 390) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(390);
        await page.screenshot({ path: path.join(SHOTS, `publishing-${name}-390.png`), fullPage: true });
      }
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const axe = (
          globalThis as unknown as { axe: { run(o: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }
        ).axe;
        const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
        return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      });
      expect(violations, `${name} at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    if (DOCS) await page.screenshot({ path: path.join(ROOT, 'docs', `publishing-${name}-1280.png`), fullPage: true });
  }

  async function finishedSetOf(email: string): Promise<string> {
    const { rows } = await p.h.t.pool.query(`SELECT account_id FROM users WHERE email = $1`, [email]);
    return finishedSet(p.h, rows[0].account_id, HEADLINES, [11, 12, 13]);
  }

  async function signUp(page: Page, email: string) {
    await page.goto(`${base}/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/keys/);
  }

  it('connect a key, publish a set from its page, see the plan, approve, watch it go live', async () => {
    const { page, cspErrors } = await person();
    await signUp(page, 'owner@example.com');
    await page.getByRole('link', { name: 'Store connections' }).click();
    await page.getByLabel('Issuer ID').fill(p.ascKey.issuerId);
    await page.getByLabel('Key ID').fill(p.ascKey.keyId);
    await page.getByLabel(/Private key file/).setInputFiles({
      name: `AuthKey_${p.ascKey.keyId}.p8`,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(p.ascKey.privateKeyPem),
    });
    await page.getByRole('button', { name: 'Connect App Store' }).click();
    await page.waitForURL(/\/connections\?added=sc_/);
    expect(await page.locator('td[data-label="Key"] code').first().textContent()).toBe(p.ascKey.keyId);
    await check(page, 'connections');

    const job = await finishedSetOf('owner@example.com');
    await page.goto(`${base}/sets/${job}`);
    await page.getByRole('link', { name: 'Publish to the store…' }).click();
    expect(await page.getByRole('radio', { name: new RegExp(p.ascKey.keyId) }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Plan the publication' }).click();
    await page.waitForURL(/\/publications\/pub_/);
    // The plan arrives while the page is open: its script notices and shows it.
    const approve = page.getByRole('button', { name: 'Approve and publish' });
    await approve.waitFor({ timeout: scaled(15_000) });
    expect(await page.locator('table.plan tbody tr').count()).toBe(3);
    await expect
      .poll(() => page.locator('img.thumb').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth)))
      .toEqual([64, 64, 64]);
    await check(page, 'plan');

    await approve.click();
    await page.getByText('Published', { exact: true }).waitFor({ timeout: scaled(20_000) });
    expect(await page.locator('[data-state="done"]').count()).toBe(3);
    expect(p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67').map((s) => s.assetDeliveryState)).toEqual([
      'COMPLETE',
      'COMPLETE',
      'COMPLETE',
    ]);
    await check(page, 'published');
    expect(cspErrors).toEqual([]);
  });

  it('without JavaScript: refresh links while it works, and Approve is a plain form', async () => {
    const { page } = await person(false);
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/keys/);
    const job = await finishedSetOf('owner@example.com');
    await page.goto(`${base}/sets/${job}/publish`);
    await page.getByRole('button', { name: 'Plan the publication' }).click();
    await page.waitForURL(/\/publications\/pub_/);
    const refreshUntil = async (text: string) => {
      // Until the page says it, bounded by the test's (scaled) timeout, not by a count of tries.
      while (!(await page.getByText(text, { exact: true }).count())) {
        await new Promise((r) => setTimeout(r, 100));
        if (await page.getByRole('link', { name: 'refresh it' }).count()) await page.getByRole('link', { name: 'refresh it' }).click();
      }
      expect(await page.getByText(text, { exact: true }).count(), text).toBe(1);
    };
    await refreshUntil('Waiting for your approval');
    // The same three slides were published by the first test: all kept, nothing to upload.
    expect(await page.locator('.action.keep').count()).toBe(3);
    await page.getByRole('button', { name: 'Approve and publish' }).click();
    await refreshUntil('Published');
  });
});
