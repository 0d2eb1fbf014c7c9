import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { main } from '../../scripts/render.ts';
import { checkStoreRules } from '../../src/rendering/index.ts';
import { habitly } from '../planning/listings.ts';
import { screen } from './support.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'shotgen-render-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run render', () => {
  it('writes one store-ready PNG per slide of a plan.json, framing the screens of a folder', async () => {
    const plan = planScreenshotSet({ listings: [habitly], extraContext: null, request: { device: 'iphone-69', count: 3 } });
    writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(plan));
    const screens = path.join(dir, 'screens');
    rmSync(screens, { recursive: true, force: true });
    mkdirSync(screens);
    // An iPhone-shaped screen: one of another shape would not be framed in an iPhone (see frames.ts).
    writeFileSync(path.join(screens, 'a.png'), await screen(660, 1434, '#EF4444'));
    const out = path.join(dir, 'out');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await main([path.join(dir, 'plan.json'), '--out', out, '--screens', screens])).toBe(0);
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
    const files = readdirSync(out).sort();
    expect(files).toEqual(plan.slides.map((s) => `${s.index}_iphone-69_${s.role}.png`).sort());
    for (const f of files) expect(checkStoreRules(readFileSync(path.join(out, f)), 'iphone-69')).toEqual([]);
    // The first slide that frames a screen shows the folder's red screen.
    const framed = plan.slides.find((s) => s.layout !== 'text-only')!;
    const { data } = await sharp(readFileSync(path.join(out, `${framed.index}_iphone-69_${framed.role}.png`)))
      .raw()
      .toBuffer({ resolveWithObject: true });
    let red = 0;
    for (let i = 0; i < data.length; i += 3) if (data[i] > 200 && data[i + 1] < 100 && data[i + 2] < 100) red++;
    expect(red).toBeGreaterThan(10_000);
  });

  it('refuses an unknown device and a missing argument with exit code 2', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await main([])).toBe(2);
      expect(await main([path.join(dir, 'plan.json'), '--device', 'nokia-3310'])).toBe(2);
    } finally {
      err.mockRestore();
    }
  });
});
