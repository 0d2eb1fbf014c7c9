/**
 * Caption corpus, App Store part one: listings written for this project in the lookup API's own
 * field names (see test/support/store-fixtures.ts). Each one stands for a kind of listing that real
 * stores are full of; none is copied from a recording.
 */
import type { LookupResult } from '../../support/store-fixtures.ts';

export const shotsOf = (app: string, n: number, size = '1290x2796') =>
  Array.from({ length: n }, (_, i) => `https://is1-ssl.mzstatic.com/image/thumb/Purple221/v4/0${i}/${app}/s${i + 1}/source/${size}bb.png`);

export interface CorpusApp {
  id: string;
  /** What the listing is in the corpus for. */
  why: string;
  country?: string;
  result: LookupResult;
}

export const APP_STORE_A: CorpusApp[] = [
  {
    id: 'streakly',
    why: 'rich listing: bullets, a pain question, boilerplate, rated',
    result: {
      trackId: 1610000001, trackName: 'Streakly: Habit Tracker', primaryGenreName: 'Health & Fitness', primaryGenreId: 6013,
      averageUserRating: 4.81, userRatingCount: 48210, price: 0,
      description: [
        'Streakly helps you build good habits and keep them, one day at a time.',
        'Tired of apps that make you feel guilty for missing a day?',
        '',
        'FEATURES',
        '• Track unlimited habits with a single tap',
        '• Smart reminders that adapt to your schedule',
        '• Beautiful charts show your progress over weeks and months',
        '• Home Screen widgets for quick check-ins',
        '• Sync across iPhone, iPad and Apple Watch with iCloud',
        '',
        'Streakly Premium is an auto-renewing subscription. Payment will be charged to your iTunes Account at confirmation of purchase.',
        'Terms: https://streakly.example.com/terms',
      ].join('\n'),
      screenshotUrls: shotsOf('streakly', 6), ipadScreenshotUrls: shotsOf('streakly-ipad', 4, '2064x2752'),
    },
  },
  {
    id: 'inkwell',
    why: 'notes app: ® symbol, iCloud casing, WHAT\'S NEW heading, review request, other apps',
    result: {
      trackId: 1610000002, trackName: 'Inkwell® Notes', primaryGenreName: 'Productivity', primaryGenreId: 6007,
      averageUserRating: 4.6, userRatingCount: 9120, price: 0,
      description: [
        'Inkwell® Notes is the fastest way to capture ideas on iPhone and iPad.',
        '',
        'WHAT\'S NEW?',
        'Dark mode, faster search and a redesigned editor.',
        '',
        '- Write with Apple Pencil in handwriting that stays searchable',
        '- Organise notes into notebooks and tags',
        '- Scan paper documents into crisp PDFs',
        '- Everything syncs through iCloud, privately',
        '',
        'If you enjoy Inkwell, we would really appreciate an App Store review. It helps a small team a lot!',
        'Also from our studio: Atlantis 2, included.',
        'Questions? Write to hello@inkwell.example',
      ].join('\n'),
      screenshotUrls: shotsOf('inkwell', 5), ipadScreenshotUrls: shotsOf('inkwell-ipad', 5, '2064x2752'),
    },
  },
  {
    id: 'tally',
    why: 'empty description, subtitle only',
    result: {
      trackId: 1610000003, trackName: 'Tally Counter', primaryGenreName: 'Productivity', primaryGenreId: 6007,
      subtitle: 'Count anything quickly', description: '', averageUserRating: 4.3, userRatingCount: 212, price: 0,
      screenshotUrls: shotsOf('tally', 2), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'blank',
    why: 'empty description, no subtitle, no rating',
    result: {
      trackId: 1610000004, trackName: 'Level Tool', primaryGenreName: 'Utilities', primaryGenreId: 6002,
      description: '', averageUserRating: undefined, userRatingCount: undefined, price: 0,
      screenshotUrls: shotsOf('level', 3), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'blockfall',
    why: 'game, description in capitals, landscape iPhone shots',
    result: {
      trackId: 1610000005, trackName: 'Blockfall Puzzle', primaryGenreName: 'Games', primaryGenreId: 6014, genres: ['Games', 'Puzzle'],
      averageUserRating: 4.4, userRatingCount: 153000, price: 0,
      description: [
        'THE MOST RELAXING BLOCK PUZZLE ON THE APP STORE!',
        'DROP BLOCKS, CLEAR LINES AND BEAT YOUR HIGH SCORE.',
        '★ OVER 500 HAND-MADE LEVELS',
        '★ DAILY CHALLENGES WITH NEW REWARDS',
        '★ PLAY OFFLINE, ANYWHERE',
        '★ NO TIMERS, NO PRESSURE',
        'DOWNLOAD NOW AND START PLAYING!',
      ].join('\n'),
      screenshotUrls: [...shotsOf('blockfall', 3, '2796x1290'), ...shotsOf('blockfall-p', 2)], ipadScreenshotUrls: shotsOf('blockfall-ipad', 3, '2752x2064'),
    },
  },
  {
    id: 'ironvale',
    why: 'game with a very long description',
    result: {
      trackId: 1610000006, trackName: 'Ironvale: Kingdoms at War', primaryGenreName: 'Games', primaryGenreId: 6014, genres: ['Games', 'Strategy', 'Role Playing'],
      averageUserRating: 4.2, userRatingCount: 88000, price: 0,
      description: [
        'Raise an army, forge alliances and conquer the realm in Ironvale, the strategy RPG played by millions.',
        ...Array.from({ length: 6 }, (_, k) => [
          `Chapter ${k + 1} of the saga takes your heroes through ${['frozen passes', 'burning deserts', 'haunted forests', 'sunken cities', 'sky fortresses', 'the iron citadel'][k]}, where every battle changes the map and every choice changes who stands with you at the end.`,
          `Recruit ${['knights', 'archers', 'mages', 'rangers', 'paladins', 'war beasts'][k]} and train them into legends with hundreds of skills, relics and upgrades to discover along the way.`,
        ]).flat(),
        '',
        'GAME FEATURES',
        '- Command real-time battles with up to 200 units on screen',
        '- Build and upgrade a fortress that other players can raid',
        '- Join a guild and fight weekly guild wars for rare rewards',
        '- Collect more than 120 heroes, each with a unique story',
        '- Stunning console-quality graphics on iPhone',
        '',
        'Ironvale is free to play, but some game items can be purchased for real money. You can turn off in-app purchases in your device settings.',
        'Follow us on Facebook and Discord for news and giveaways!',
        'Privacy policy: https://ironvale.example.com/privacy',
      ].join('\n'),
      screenshotUrls: shotsOf('ironvale', 8), ipadScreenshotUrls: shotsOf('ironvale-ipad', 4, '2064x2752'),
    },
  },
  {
    id: 'darkroom',
    why: 'paid photo editor whose text says "free updates"',
    result: {
      trackId: 1610000007, trackName: 'Lumen Darkroom', primaryGenreName: 'Photo & Video', primaryGenreId: 6008,
      subtitle: 'Pro photo editing, no subscription', price: 4.99, averageUserRating: 4.7, userRatingCount: 2301,
      description: [
        'Lumen Darkroom brings professional RAW editing to your iPhone, with a one-time purchase and free updates for life.',
        'Edit RAW and ProRAW photos with full-resolution precision.',
        'Adjust light, colour and detail with curves and selective masks.',
        'Save your looks as presets and apply them to a whole album at once.',
        'Export to full-size JPEG, HEIC or TIFF.',
      ].join('\n'),
      screenshotUrls: shotsOf('darkroom', 5), ipadScreenshotUrls: shotsOf('darkroom-ipad', 3, '2064x2752'),
    },
  },
  {
    id: 'pennywise',
    why: 'paid finance app with a problem statement and real steps',
    result: {
      trackId: 1610000008, trackName: 'Pennywise Budget', primaryGenreName: 'Finance', primaryGenreId: 6015,
      subtitle: 'Budgets and bills, sorted', price: 9.99, averageUserRating: 4.5, userRatingCount: 3410,
      description: [
        'Struggling to see where your money goes each month?',
        'Pennywise turns your spending into a plan you can actually keep.',
        '',
        'How it works:',
        '1. Connect your accounts or add expenses by hand',
        '2. Set a budget for each category',
        '3. Watch your savings grow week by week',
        '',
        'Bank-grade encryption keeps your data private. Export reports to CSV and PDF.',
      ].join('\n'),
      screenshotUrls: shotsOf('pennywise', 5), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'calendarium-mac',
    why: 'a Mac-only app (mac-software) asked for an iPhone set',
    result: {
      kind: 'mac-software', trackId: 1610000009, trackName: 'Calendarium for Mac', primaryGenreName: 'Productivity', primaryGenreId: 12014,
      price: 19.99, averageUserRating: 4.1, userRatingCount: 1280,
      description: [
        'Designed exclusively for macOS, Calendarium lives in your menu bar and shows your day at a glance.',
        'Type events in plain English and they appear in the right place.',
        'Full calendar window with day, week, month and year views.',
        'Works with iCloud, Google and Exchange calendars.',
      ].join('\n'),
      screenshotUrls: shotsOf('calendarium', 4, '2880x1800'), ipadScreenshotUrls: undefined,
    },
  },
  {
    id: 'kraftwerk-de',
    why: 'German storefront: fitness listing in German',
    country: 'de',
    result: {
      trackId: 1610000010, trackName: 'Kraftwerk Training', primaryGenreName: 'Gesundheit und Fitness', primaryGenreId: 6013,
      subtitle: 'Dein Trainingsplan für zu Hause', averageUserRating: 4.6, userRatingCount: 5400, price: 0, currency: 'EUR',
      description: [
        'Kraftwerk erstellt dir einen Trainingsplan, der zu deinem Alltag passt.',
        '• Über 300 Übungen mit Videoanleitung',
        '• Workouts von 10 bis 45 Minuten',
        '• Trainiere ohne Geräte oder mit Hanteln',
        '• Fortschritt und Rekorde im Blick behalten',
        'Datenschutz: https://kraftwerk.example.de/datenschutz',
      ].join('\n'),
      screenshotUrls: shotsOf('kraftwerk', 5), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'cuisine-fr',
    why: 'French storefront: cooking listing in French',
    country: 'fr',
    result: {
      trackId: 1610000011, trackName: 'Petite Cuisine', primaryGenreName: 'Cuisine et boissons', primaryGenreId: 6023,
      subtitle: 'Des idées repas chaque jour', averageUserRating: 4.7, userRatingCount: 2200, price: 0, currency: 'EUR',
      description: [
        'Petite Cuisine vous aide à cuisiner de bons plats sans stress.',
        '• Des milliers de recettes testées par des chefs',
        '• Une liste de courses générée automatiquement',
        '• Le mode pas à pas pour cuisiner sans erreur',
        '• Vos favoris synchronisés sur tous vos appareils',
        'Planifiez vos menus de la semaine en quelques minutes.',
      ].join('\n'),
      screenshotUrls: shotsOf('cuisine', 5), ipadScreenshotUrls: shotsOf('cuisine-ipad', 2, '2064x2752'),
    },
  },
  {
    id: 'kotoba-ja',
    why: 'Japanese storefront: language learning in Japanese',
    country: 'jp',
    result: {
      trackId: 1610000012, trackName: 'ことば英単語', primaryGenreName: '教育', primaryGenreId: 6017,
      subtitle: '毎日5分で英単語が身につく', averageUserRating: 4.5, userRatingCount: 12000, price: 0, currency: 'JPY',
      description: [
        'ことば英単語は、忙しい人のための英単語アプリです。',
        '・TOEIC頻出の3000語を収録',
        '・ネイティブ音声で発音を確認',
        '・忘れかけた単語を自動で復習',
        '・オフラインでも学習できます',
      ].join('\n'),
      screenshotUrls: shotsOf('kotoba', 4), ipadScreenshotUrls: [],
    },
  },
];
