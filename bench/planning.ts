/**
 * Planning speed for an 8-slide set (what the listing below supports: more is refused): `tsx bench/planning.ts`. "cold" re-analyses the listing every
 * run (a worker's first job for an app); "warm" reuses the cached analysis (retries, other devices).
 */
import { checkFillable } from '../src/planning/fillable.ts';
import { planScreenshotSet } from '../src/planning/plan.ts';
import type { PlanInput } from '../src/core/set.ts';
import { clearUnderstandingCache } from '../src/captions/understand.ts';
import { emptyScreenshots, type Listing } from '../src/core/listing.ts';

const GOAL_MS = 50;

const listing: Listing = {
  store: 'app-store',
  storeId: '1',
  country: 'us',
  language: 'en',
  url: 'https://apps.apple.com/us/app/id1',
  name: 'Habitly: Habit Tracker & Goals',
  category: 'Health & Fitness',
  categoryId: '6013',
  artworkUrl: 'https://cdn.example.com/i.png',
  subtitle: 'Build better habits daily',
  developer: 'Example',
  rating: 4.8,
  ratingCount: 12840,
  price: 0,
  currency: 'USD',
  description: [
    'Habitly helps you build good habits and break bad ones, one day at a time.',
    'FEATURES:',
    ...[
      'Track unlimited habits with a single tap',
      'Smart reminders that adapt to your schedule',
      'Beautiful charts and streak insights',
      'Home screen widgets for quick check-ins',
      'Sync across all your devices with iCloud',
      'Dark mode and custom themes',
    ].map((f) => `• ${f}`),
    'Stay motivated',
    'Earn streaks, celebrate milestones and share your progress with friends. Plan your week, review your month and see how far you have come.',
    'Habitly Premium is an auto-renewing subscription. Privacy policy: https://example.com/privacy',
  ]
    .join('\n')
    .repeat(2),
  screenshots: {
    ...emptyScreenshots(),
    iphone: Array.from({ length: 6 }, (_, i) => ({ url: `https://cdn.example.com/${i}.png`, width: 1290, height: 2796 })),
  },
};

export interface BenchRow {
  case: string;
  runs: number;
  meanMs: number;
  p99Ms: number;
  goalMs: number;
  ok: boolean;
}

function measure(name: string, runs: number, fn: () => void): BenchRow {
  for (let i = 0; i < 50; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / runs;
  const p99 = times[Math.min(runs - 1, Math.ceil(runs * 0.99) - 1)];
  return { case: name, runs, meanMs: +mean.toFixed(3), p99Ms: +p99.toFixed(3), goalMs: GOAL_MS, ok: p99 < GOAL_MS };
}

export async function benchPlanning(runs = 2000): Promise<{ name: string; rows: BenchRow[] }> {
  const input: PlanInput = {
    listings: [listing],
    extraContext: null,
    request: { device: 'iphone-69', count: 8, captionStyle: 'aso-expert', captionLength: 'long' },
  };
  const rows = [
    measure('8 slides, cold (listing analysed each run)', Math.max(50, Math.floor(runs / 10)), () => {
      clearUnderstandingCache();
      planScreenshotSet(input);
    }),
    measure('8 slides, warm (cached analysis)', runs, () => planScreenshotSet(input)),
    measure('8 slides, warm, playful short', runs, () =>
      planScreenshotSet({ ...input, request: { ...input.request, captionStyle: 'playful', captionLength: 'short' } }),
    ),
    // What POST /screenshots runs on the event loop before charging (src/sets/create.ts).
    measure('create path: can the set be filled? (warm)', runs, () => checkFillable(input, false)),
  ];
  return { name: 'planning', rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows } = await benchPlanning(Number(process.argv[2] ?? 2000));
  console.table(rows);
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
}
