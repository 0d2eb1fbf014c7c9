/**
 * `npm run render -- <plan.json | listing file>... [--device D] [--out DIR] [--screens DIR] [--panoramic] [--theme T] [--locale L]`
 * Writes a set's PNGs so a person can look at them. A plan.json is a job result (or `npm run plan
 * -- --json` output); listing files (Listing JSON, App Store lookup body, Google Play page) are
 * planned first with the built-in planner, as `npm run plan` does. --screens takes the images of a
 * folder, in name order, for the slides that frame a screen; without it those slides show a dark
 * screen (the stores' own screenshots are not downloaded here).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isProblem } from '../src/core/problem.ts';
import { readListing } from './plan.ts';
import { planScreenshotSet } from '../src/planning/plan.ts';
import { DEVICE_IDS, DEVICES, type Device } from '../src/core/devices.ts';
import { type ScreenshotSetResult } from '../src/core/set.ts';
import { THEME_IDS, type ThemeId } from '../src/core/themes.ts';
import { lintWarnings } from '../src/rendering/warnings.ts';
import { checkStoreRules } from '../src/rendering/store-rules.ts';
import { RenderPool } from '../src/rendering/pool.ts';

const USAGE = `usage: npm run render -- <plan.json | listing file>... [--device D] [--out DIR] [--screens DIR] [--panoramic] [--theme ${THEME_IDS.join('|')}] [--locale de-DE]`;

function loadPlan(files: string[], device: Device | undefined): ScreenshotSetResult {
  if (files.length === 1) {
    const body = readFileSync(files[0], 'utf8').trimStart();
    if (body.startsWith('{')) {
      const json = JSON.parse(body) as Partial<ScreenshotSetResult> & { result?: ScreenshotSetResult };
      // A job as GET returns it, or its result alone.
      const plan = json.result ?? json;
      if (Array.isArray(plan.slides) && plan.device) return { ...(plan as ScreenshotSetResult), device: device ?? plan.device };
    }
  }
  const listings = files.map((f) => readListing(f));
  listings.sort((a, b) => (a.store === b.store ? 0 : a.store === 'app-store' ? -1 : 1));
  return planScreenshotSet({ listings, extraContext: null, request: { device: device ?? 'iphone-69' } });
}

function screensFrom(dir: string | undefined, plan: ScreenshotSetResult): (Buffer | null)[] {
  const files = dir
    ? readdirSync(dir)
        .filter((f) => /\.(png|jpe?g|webp)$/i.test(f))
        .sort()
        .map((f) => path.join(dir, f))
    : [];
  let next = 0;
  return plan.slides.map((s) => (s.layout !== 'text-only' && next < files.length ? readFileSync(files[next++]) : null));
}

/** Runs the command; the exit code (0, 1 when a picture breaks a store rule, 2 for bad usage). */
export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      device: { type: 'string' },
      out: { type: 'string' },
      screens: { type: 'string' },
      panoramic: { type: 'boolean', default: false },
      theme: { type: 'string' },
      // The captions' language: line breaking and hyphenation follow it (docs/typography.md).
      locale: { type: 'string' },
    },
  });
  if (positionals.length === 0) {
    console.error(USAGE);
    return 2;
  }
  if (values.device !== undefined && !(values.device in DEVICES)) {
    console.error(`unknown device "${values.device}"; one of ${DEVICE_IDS.join(', ')}`);
    return 2;
  }
  if (values.theme !== undefined && !(THEME_IDS as readonly string[]).includes(values.theme)) {
    console.error(`unknown theme "${values.theme}"; one of ${THEME_IDS.join(', ')}`);
    return 2;
  }
  const theme = values.theme as ThemeId | undefined;
  const plan = loadPlan(positionals, values.device as Device | undefined);
  const out = values.out ?? path.join('out', plan.device);
  mkdirSync(out, { recursive: true });
  const pool = new RenderPool();
  try {
    const started = performance.now();
    const rendered = await pool.renderSlides(
      {
        device: plan.device,
        slides: plan.slides,
        screens: screensFrom(values.screens, plan),
        panoramic: values.panoramic,
        theme,
        locale: values.locale,
      },
      { onSlide: (done, total) => process.stderr.write(`\rrendered ${done}/${total}`) },
    );
    process.stderr.write(` in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    let failed = 0;
    rendered.forEach(({ bytes: png, format, lint }, i) => {
      const s = plan.slides[i];
      const file = path.join(out, `${s.index}_${plan.device}_${s.role}.${format === 'jpeg' ? 'jpg' : 'png'}`);
      writeFileSync(file, png);
      const problems = checkStoreRules(png, plan.device);
      if (problems.length) failed++;
      console.log(
        `${file}  ${(png.length / 1024).toFixed(0)} KB  ${s.layout}  ${problems.length ? `STORE RULES: ${problems.join('; ')}` : 'store rules ok'}`,
      );
      for (const w of lintWarnings([s.index], [lint])) console.log(`  ${w}`);
    });
    return failed ? 1 : 0;
  } finally {
    await pool.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(isProblem(error) ? `${error.title}: ${error.detail}` : error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
}
