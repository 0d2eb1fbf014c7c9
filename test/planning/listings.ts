/** Listing fixtures for the planner tests, built in code so each one isolates a case. */
import { emptyScreenshots, type Listing, type Screenshot } from '../../src/core/listing.ts';

const shots = (prefix: string, n: number, w = 1290, h = 2796): Screenshot[] =>
  Array.from({ length: n }, (_, i) => ({ url: `https://cdn.example.com/${prefix}/${i + 1}.png`, width: w, height: h }));

const base = (over: Partial<Listing>): Listing => ({
  store: 'app-store',
  storeId: '1000000001',
  country: 'us',
  language: 'en',
  url: 'https://apps.apple.com/us/app/id1000000001',
  name: 'App',
  category: 'Utilities',
  categoryId: '6002',
  artworkUrl: 'https://cdn.example.com/icon-512.png',
  description: '',
  subtitle: null,
  developer: 'Example Ltd',
  rating: null,
  ratingCount: null,
  price: 0,
  currency: 'USD',
  screenshots: emptyScreenshots(),
  ...over,
});

/** Rich English listing: tagline, bullet features, headings, boilerplate to ignore; rated. */
export const habitly = base({
  name: 'Habitly: Habit Tracker & Goals',
  category: 'Health & Fitness',
  subtitle: 'Build better habits daily',
  rating: 4.78,
  ratingCount: 12840,
  description: [
    'Habitly helps you build good habits and break bad ones, one day at a time.',
    'Tired of forgetting your daily goals?',
    '',
    'FEATURES:',
    '• Track unlimited habits with a single tap',
    '• Smart reminders that adapt to your schedule',
    '• Beautiful charts and streak insights',
    '• Home screen widgets for quick check-ins',
    '• Sync across iPhone, iPad and Apple Watch with iCloud',
    '',
    'Stay motivated',
    'Earn streaks, celebrate milestones and share your progress with friends.',
    '',
    'Habitly Premium is an auto-renewing subscription. Payment will be charged to your iTunes Account. Privacy policy: https://habitly.example.com/privacy',
  ].join('\n'),
  screenshots: { ...emptyScreenshots(), iphone: shots('habitly/iphone', 6), ipad: shots('habitly/ipad', 4, 2064, 2752) },
});

/** No description at all: the plan must come from name, category and subtitle. */
export const emptyDescription = base({
  storeId: '1000000002',
  name: 'Tally Counter',
  category: 'Productivity',
  subtitle: 'Count anything quickly',
  description: '',
  screenshots: { ...emptyScreenshots(), iphone: shots('tally/iphone', 2) },
});

/** The French storefront: captions should reuse French phrases and warn. */
export const french = base({
  storeId: '1000000003',
  country: 'fr',
  language: 'fr',
  url: 'https://apps.apple.com/fr/app/id1000000003',
  name: 'Recettes Faciles',
  category: 'Cuisine et boissons',
  subtitle: 'Des idées repas chaque jour',
  description: [
    'Recettes Faciles vous aide à cuisiner de bons plats sans stress.',
    '• Des milliers de recettes testées par des chefs',
    '• Une liste de courses générée automatiquement',
    '• Le mode pas à pas pour cuisiner sans erreur',
    '• Vos favoris synchronisés sur tous vos appareils',
    'Planifiez vos menus de la semaine en quelques minutes.',
  ].join('\n'),
  price: 0,
  currency: 'EUR',
  rating: 4.6,
  ratingCount: 932,
  screenshots: { ...emptyScreenshots(), iphone: shots('recettes/iphone', 5) },
});

/** Paid ($4.99), says "free" in its text: no caption may say "free". No rating. */
export const paid = base({
  storeId: '1000000004',
  name: 'Ledger Pro',
  category: 'Finance',
  subtitle: 'Budgets and bills, sorted',
  price: 4.99,
  description: [
    'Ledger Pro is the budgeting app for people who hate spreadsheets.',
    '- Free updates for life',
    '- Categorise every expense automatically',
    '- Plan monthly budgets and see where your money goes',
    '- Export reports to CSV and PDF',
    '- Bank-grade encryption keeps your data private',
    'Feel free to contact us with feedback.',
  ].join('\n'),
  screenshots: { ...emptyScreenshots(), iphone: shots('ledger/iphone', 5), ipad: shots('ledger/ipad', 5, 2064, 2752) },
});

/** iPhone shots only: an iPad set has no screenshots and must say so. */
export const noIpad = base({
  storeId: '1000000005',
  name: 'Pocket Weather',
  category: 'Weather',
  subtitle: null,
  rating: 4.2,
  ratingCount: 310,
  description:
    'Hyperlocal forecasts for your exact location. See rain minute by minute, get severe weather alerts and check the air quality before you head out.',
  screenshots: { ...emptyScreenshots(), iphone: shots('weather/iphone', 3) },
});

/** Google Play listing with 10 phone shots and no tablet shots. */
export const android = base({
  store: 'google-play',
  storeId: 'com.example.trailmate',
  url: 'https://play.google.com/store/apps/details?id=com.example.trailmate',
  name: 'TrailMate - Hiking GPS',
  category: 'Maps & Navigation',
  subtitle: 'Offline trail maps for hikers and runners',
  rating: 4.5,
  ratingCount: 2_450_000,
  description: [
    'TrailMate is the hiking companion trusted by outdoor lovers.',
    '★ Download offline maps for any trail',
    '★ Record your hikes with accurate GPS tracking',
    '★ Discover 500,000 trails with photos and reviews',
    '★ Share live location with family for safety',
    '★ Works on your Android phone and Wear OS watch',
    'Plan your route, follow it without signal and get back safely.',
  ].join('\n'),
  screenshots: { ...emptyScreenshots(), 'android-phone': shots('trailmate/phone', 10, 1080, 1920) },
});

/** Minimal listing with no rating, one-line description and a long name. */
export const unrated = base({
  storeId: '1000000007',
  name: 'Quiet Hours - Focus Timer for Deep Work and Study Sessions',
  category: 'Productivity',
  description: 'A calm focus timer. Block distractions, run pomodoro sessions and review your focus history.',
  screenshots: { ...emptyScreenshots(), iphone: shots('quiet/iphone', 4), ipad: shots('quiet/ipad', 1, 2064, 2752) },
});

export const LISTINGS: Record<string, Listing> = { habitly, emptyDescription, french, paid, noIpad, android, unrated };
