/**
 * `npm run plan -- <listing.json | recorded store file>... [--device D] [--style S] [--length L]
 *  [--count N] [--narrative ID] [--context TEXT] [--country CC] [--language LL] [--json]`
 * Plans a set offline with the built-in planner and prints it as a table.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { parseAppStoreLookupBody } from '../src/stores/app-store.ts';
import { parseGooglePlayDetailsPage } from '../src/stores/google-play.ts';
import type { Listing } from '../src/core/listing.ts';
import { isProblem } from '../src/core/problem.ts';
import { contrastRatio } from '../src/planning/look.ts';
import { planScreenshotSet } from '../src/planning/plan.ts';
import type { CaptionLength, CaptionStyle, ScreenshotSetResult } from '../src/core/set.ts';
import type { Device } from '../src/core/devices.ts';

/** Reads a Listing JSON, an App Store lookup body or a Google Play details page; refs come from the file name. */
export function readListing(file: string, opts: { country?: string; language?: string } = {}): Listing {
  const body = readFileSync(file, 'utf8');
  const name = basename(file);
  const trimmed = body.trimStart();
  if (trimmed.startsWith('<')) {
    const id = name.split('_')[0].replace(/\.html?$/, '');
    const country = opts.country ?? /gl-([a-z]{2})/i.exec(name)?.[1]?.toLowerCase() ?? 'us';
    const language = opts.language ?? /hl-([a-z]{2})/i.exec(name)?.[1]?.toLowerCase() ?? 'en';
    return parseGooglePlayDetailsPage(body, { id, country, language });
  }
  const json = JSON.parse(trimmed) as Record<string, unknown>;
  if ('resultCount' in json || 'errorMessage' in json) {
    // A file named by bundle id has no track id in its name: plan its (single) result.
    const first = (json.results as Array<{ trackId?: number }> | undefined)?.[0];
    const id = /id(\d+)/.exec(name)?.[1] ?? String(first?.trackId ?? '0');
    const country = opts.country ?? /^([a-z]{2})_/.exec(name)?.[1] ?? 'us';
    return parseAppStoreLookupBody(body, { id, country });
  }
  return json as unknown as Listing;
}

const cell = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));

export function formatPlan(result: ScreenshotSetResult): string {
  const first = result.slides[0];
  const lines = [
    `${result.device} ${result.width}×${result.height} · ${result.captionStyle} · ${result.captionLength} · narrative ${result.narrativeId ?? '(default)'} · ${result.slides.length} slides`,
    `background ${first.background.colors.join(' → ')} · text ${first.textColor} (contrast ${Math.min(...first.background.colors.map((c) => contrastRatio(c, first.textColor))).toFixed(2)}:1)`,
    '',
    `${cell('#', 3)} ${cell('role', 15)} ${cell('layout', 16)} ${cell('headline', 42)} ${cell('screenshot', 16)} keywords`,
    '-'.repeat(120),
  ];
  for (const s of result.slides) {
    const shot = s.screenshotUrl ? s.screenshotUrl.split('/').slice(-2).join('/') : '(none)';
    lines.push(
      `${cell(String(s.index), 3)} ${cell(s.role, 15)} ${cell(s.layout, 16)} ${cell(s.headline, 42)} ${cell(shot, 16)} ${s.keywords.join(', ')}`,
    );
    if (s.subheadline) lines.push(`${' '.repeat(37)}↳ ${s.subheadline}`);
  }
  if (result.warnings.length) lines.push('', 'warnings:', ...result.warnings.map((w) => `  - ${w}`));
  return lines.join('\n');
}

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      device: { type: 'string', default: 'iphone-69' },
      style: { type: 'string' },
      length: { type: 'string' },
      count: { type: 'string' },
      narrative: { type: 'string' },
      context: { type: 'string' },
      country: { type: 'string' },
      language: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length === 0) {
    console.error(
      'usage: npm run plan -- <listing.json | lookup.json | details.html>... [--device D] [--style S] [--length L] [--count N] [--narrative ID] [--context TEXT] [--json]',
    );
    return 2;
  }
  const listings = positionals.map((f) => readListing(f, { country: values.country, language: values.language }));
  listings.sort((a, b) => (a.store === b.store ? 0 : a.store === 'app-store' ? -1 : 1));
  const result = planScreenshotSet({
    listings,
    extraContext: values.context ?? null,
    request: {
      device: values.device as Device,
      count: values.count === undefined ? undefined : Number(values.count),
      captionStyle: values.style as CaptionStyle | undefined,
      captionLength: values.length as CaptionLength | undefined,
      narrativeId: values.narrative ?? null,
    },
  });
  console.log(values.json ? JSON.stringify(result, null, 2) : formatPlan(result));
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(isProblem(error) ? `${error.title}: ${error.detail}` : error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
