/** Caption corpus, App Store part two (see app-store-a.ts). */
import { shotsOf, type CorpusApp } from './app-store-a.ts';

export const APP_STORE_B: CorpusApp[] = [
  {
    id: 'calma-es',
    why: 'Spanish storefront: meditation listing in Spanish, with a pain question',
    country: 'es',
    result: {
      trackId: 1610000013, trackName: 'Calma Diaria', primaryGenreName: 'Salud y forma física', primaryGenreId: 6013,
      subtitle: 'Medita y duerme mejor', averageUserRating: 4.8, userRatingCount: 7600, price: 0, currency: 'EUR',
      description: [
        '¿Te cuesta dormir por las noches?',
        'Calma Diaria te acompaña con meditaciones guiadas de 5 a 20 minutos.',
        '• Sonidos para dormir y relajarse',
        '• Ejercicios de respiración contra la ansiedad',
        '• Recordatorios suaves para crear el hábito',
      ].join('\n'),
      screenshotUrls: shotsOf('calma', 4), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'lingolens',
    why: 'translation app with a broken sentence and a URL call to action',
    result: {
      trackId: 1610000014, trackName: 'LingoLens Translator', primaryGenreName: 'Reference', primaryGenreId: 6006,
      averageUserRating: 4.4, userRatingCount: 15400, price: 0,
      description: [
        'Translate menus, signs and documents instantly by just pointing your camera 94 languages.',
        'Have a conversation in two languages with live voice translation.',
        'Download languages to translate offline when you travel.',
        'Save phrases to your phrasebook and practise them later.',
        'Visit lingolens.example.com to learn more.',
      ].join('\n'),
      screenshotUrls: shotsOf('lingolens', 5), ipadScreenshotUrls: shotsOf('lingolens-ipad', 2, '2064x2752'),
    },
  },
  {
    id: 'sprout',
    why: 'kids app: use cases listed as bullets, real steps only in prose',
    result: {
      trackId: 1610000015, trackName: 'Sprout Growth Chart', primaryGenreName: 'Education', primaryGenreId: 6017,
      subtitle: 'Track how your kids grow', averageUserRating: 4.6, userRatingCount: 880, price: 0,
      description: [
        'Use Sprout to:',
        '- Measure your kids',
        '- Compare with WHO growth curves',
        '- Share charts with your paediatrician',
        '',
        'Log height and weight in seconds and see every child\'s growth on one clear chart.',
        'Add photos to each measurement to remember the moment.',
      ].join('\n'),
      screenshotUrls: shotsOf('sprout', 4), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'drift',
    why: 'sleep app with pain questions and benefit clauses',
    result: {
      trackId: 1610000016, trackName: 'Drift: Sleep Sounds', primaryGenreName: 'Health & Fitness', primaryGenreId: 6013,
      subtitle: 'Fall asleep faster tonight', averageUserRating: 4.9, userRatingCount: 61200, price: 0,
      description: [
        'Can\'t switch off at night? Tired of lying awake with racing thoughts?',
        'Drift mixes calming sounds into a soundscape that is just right for you.',
        'Your mix keeps playing in the background while your screen is off.',
        'A gentle alarm wakes you at the lightest point of your sleep.',
        'Sleep stories read by soothing voices help your mind slow down.',
      ].join('\n'),
      screenshotUrls: shotsOf('drift', 5), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'skycast',
    why: 'weather app whose iPad shots are landscape',
    result: {
      trackId: 1610000017, trackName: 'Skycast Weather', primaryGenreName: 'Weather', primaryGenreId: 6001,
      averageUserRating: 4.3, userRatingCount: 3300, price: 0,
      description: 'Hyperlocal forecasts for your exact location. See rain minute by minute, get severe weather alerts and check the air quality before you head out. Radar maps show storms as they move.',
      screenshotUrls: shotsOf('skycast', 3), ipadScreenshotUrls: [...shotsOf('skycast-ipad-l', 2, '2752x2064'), ...shotsOf('skycast-ipad-p', 2, '2064x2752')],
    },
  },
  {
    id: 'wayfarer',
    why: 'travel planner that lists its developer\'s other apps',
    result: {
      trackId: 1610000018, trackName: 'Wayfarer Trip Planner', primaryGenreName: 'Travel', primaryGenreId: 6003,
      subtitle: 'Every trip in one place', averageUserRating: 4.5, userRatingCount: 1900, price: 0,
      description: [
        'Wayfarer keeps flights, hotels and plans together in one tidy itinerary.',
        '• Forward booking emails and Wayfarer builds your itinerary',
        '• Offline access to every document on the road',
        '• Share plans with the people you travel with',
        '',
        'MORE APPS FROM US',
        '• Atlantis 2, included.',
        '• Packlist: the packing checklist',
      ].join('\n'),
      screenshotUrls: shotsOf('wayfarer', 5), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'podnest',
    why: 'podcast player with an upsell and hidden keyword tags',
    result: {
      trackId: 1610000019, trackName: 'Podnest', primaryGenreName: 'Music', primaryGenreId: 6011,
      subtitle: 'The podcast player for fans', averageUserRating: 4.4, userRatingCount: 5120, price: 0,
      description: [
        'Podnest is the podcast player that gets out of your way.',
        'Smart speed trims silences without changing voices.',
        'Queue episodes from every show in one Up Next list.',
        'CarPlay and AirPlay support built in.',
        'Upgrade to Podnest Plus to unlock cloud sync and custom themes.',
        '',
        'Keywords: podcast, podcasts, radio, audiobook, news, episodes, player, listen',
      ].join('\n'),
      screenshotUrls: shotsOf('podnest', 6), ipadScreenshotUrls: shotsOf('podnest-ipad', 3, '2064x2752'),
    },
  },
  {
    id: 'forkful',
    why: 'recipes with emoji bullets and invisible characters',
    result: {
      trackId: 1610000020, trackName: 'Forkful Recipes', primaryGenreName: 'Food & Drink', primaryGenreId: 6023,
      averageUserRating: 4.6, userRatingCount: 4100, price: 0,
      description: [
        '\u200BCook something great tonight with Forkful.\u200B',
        '🍝 Thousands of recipes tested in real kitchens',
        '🛒 A\u00ADutomatic shopping lists sorted by aisle',
        '⏱️ Step-by-step cooking mode with built-in timers',
        '❤️ Save favourites and plan the week\u2060',
      ].join('\n'),
      screenshotUrls: shotsOf('forkful', 4), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'easyplanner',
    why: 'markup in the text and a brand in camel case',
    result: {
      trackId: 1610000021, trackName: 'EasyPlanner', primaryGenreName: 'Productivity', primaryGenreId: 6007,
      subtitle: 'Kanban boards for your week', averageUserRating: 4.2, userRatingCount: 640, price: 0,
      description: [
        '**EasyPlanner** turns your week into simple boards you can actually follow.',
        '- **Drag and drop** tasks between days',
        '- Colour-coded <b>labels</b> and due dates',
        '- Plan together with shared boards',
        '- Syncs with iCloud and works offline',
      ].join('\n'),
      screenshotUrls: shotsOf('easyplanner', 5), ipadScreenshotUrls: shotsOf('easyplanner-ipad', 5, '2064x2752'),
    },
  },
  {
    id: 'kindred',
    why: 'social app, short prose description',
    result: {
      trackId: 1610000022, trackName: 'Kindred: Meet Locals', primaryGenreName: 'Social Networking', primaryGenreId: 6005,
      averageUserRating: 4.0, userRatingCount: 22000, price: 0,
      description: 'Kindred helps you make new friends nearby who share your interests. Join small groups for walks, games and book clubs, chat before you meet, and see verified profiles only.',
      screenshotUrls: shotsOf('kindred', 5), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'cartwheel',
    why: 'shopping app with a review request and social links',
    result: {
      trackId: 1610000023, trackName: 'Cartwheel Deals', primaryGenreName: 'Shopping', primaryGenreId: 6024,
      averageUserRating: 4.5, userRatingCount: 130000, price: 0,
      description: [
        'Save on everyday shopping with Cartwheel.',
        'Scan barcodes in store to compare prices nearby.',
        'Get alerts when items on your wish list drop in price.',
        'Collect digital coupons and use them at checkout.',
        'Love Cartwheel? Please rate us 5 stars!',
        'Follow us on Instagram @cartwheeldeals',
      ].join('\n'),
      screenshotUrls: shotsOf('cartwheel', 5), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'tunelab',
    why: 'paid music utility, two-sentence description',
    result: {
      trackId: 1610000024, trackName: 'TuneLab Guitar Tuner', primaryGenreName: 'Music', primaryGenreId: 6011,
      price: 2.99, averageUserRating: 4.8, userRatingCount: 910,
      description: 'A precise chromatic tuner for guitar, bass and ukulele. Alternate tunings and a metronome are included.',
      screenshotUrls: shotsOf('tunelab', 3), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'routely',
    why: 'navigation app with an email address and a URL in its prose',
    result: {
      trackId: 1610000025, trackName: 'Routely GPS', primaryGenreName: 'Navigation', primaryGenreId: 6010,
      subtitle: 'Offline maps and turn-by-turn', averageUserRating: 4.3, userRatingCount: 7800, price: 0,
      description: [
        'Routely gives you turn-by-turn navigation that works without a signal.',
        'Download maps for whole countries in a few minutes.',
        'Avoid tolls, ferries or highways with one tap.',
        'Speed camera warnings and lane guidance keep you on track.',
        'Feedback? Email support@routely.example or visit www.routely.example.',
      ].join('\n'),
      screenshotUrls: shotsOf('routely', 5), ipadScreenshotUrls: [],
    },
  },
  {
    id: 'framewise',
    why: 'video editor, sparse: one feature sentence',
    result: {
      trackId: 1610000026, trackName: 'Framewise', primaryGenreName: 'Photo & Video', primaryGenreId: 6008,
      averageUserRating: 3.9, userRatingCount: 140, price: 0,
      description: 'Trim clips and add music in seconds.',
      screenshotUrls: shotsOf('framewise', 5), ipadScreenshotUrls: [],
    },
  },
];
