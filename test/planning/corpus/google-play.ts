/** Caption corpus, Google Play: details pages built with the project's Play fixture builder. */
import type { PlayDetailsOptions } from '../../support/store-fixtures.ts';

export interface CorpusPlayApp {
  id: string;
  why: string;
  language?: string;
  details: PlayDetailsOptions;
}

const phone = (n: number): Array<[number, number]> => Array.from({ length: n }, () => [1920, 1080]);

export const GOOGLE_PLAY: CorpusPlayApp[] = [
  {
    id: 'trailhead',
    why: 'Play listing with star bullets and a mention of the other platform',
    details: {
      id: 'com.example.trailhead', title: 'Trailhead - Hiking GPS', genre: 'Maps & Navigation', genreId: 'MAPS_AND_NAVIGATION',
      summary: 'Offline trail maps for hikers and runners', rating: 4.6, ratingCount: 2450000,
      descriptionHtml: [
        'Trailhead is the hiking companion trusted by outdoor lovers.',
        '★ Download offline maps for any trail',
        '★ Record your hikes with accurate GPS tracking',
        '★ Discover 500,000 trails with photos and reviews',
        '★ Share live location with family for safety',
        '★ Also available for iPhone and Apple Watch',
      ].join('<br>'),
      screenshots: phone(8),
    },
  },
  {
    id: 'nitro',
    why: 'arcade game with landscape phone shots',
    details: {
      id: 'com.example.nitro', title: 'Nitro Dash', genre: 'Arcade', genreId: 'GAME_ARCADE',
      summary: 'Drift, boost and race to the top', rating: 4.3, ratingCount: 410000,
      descriptionHtml: [
        'Race through neon cities in the fastest arcade racer on mobile!',
        '<b>FEATURES</b>',
        '- 40 cars to unlock and tune',
        '- Online races against players worldwide',
        '- Weekly events with exclusive rewards',
        '- One-thumb controls anyone can learn',
      ].join('<br>'),
      screenshots: [[1080, 1920], [1080, 1920], [1080, 1920], [1920, 1080], [1920, 1080]],
    },
  },
  {
    id: 'moneyjar',
    why: 'unrated finance app with upsells',
    details: {
      id: 'com.example.moneyjar', title: 'MoneyJar: Savings Goals', genre: 'Finance', genreId: 'FINANCE',
      summary: 'Save for what matters', rating: 0, ratingCount: 0,
      descriptionHtml: [
        'MoneyJar helps you save for the things you care about.',
        'Create a jar for each goal and watch it fill up.',
        'Round up purchases automatically into your savings.',
        'Unlock MoneyJar Pro for unlimited jars and custom icons.',
        'Try Pro free for 7 days, cancel anytime.',
      ].join('<br>'),
      screenshots: phone(4),
    },
  },
  {
    id: 'taskforge',
    why: 'HTML markup, a WHAT\'S NEW section and a call for reviews',
    details: {
      id: 'com.example.taskforge', title: 'TaskForge: To-Do & Planner', genre: 'Productivity', genreId: 'PRODUCTIVITY',
      summary: 'To-do lists that keep up with you', rating: 4.5, ratingCount: 88000,
      descriptionHtml: [
        '<b>TaskForge</b> is a to-do list and planner for busy people.',
        '<br><b>WHAT\'S NEW</b>',
        'Bug fixes and performance improvements.',
        '<br><b>KEY FEATURES</b>',
        '✓ Add tasks in plain language, like "Call mum tomorrow at 6"',
        '✓ Recurring tasks and smart due dates',
        '✓ Focus timer built in',
        '✓ Widgets for your home screen',
        '<br>Enjoying TaskForge? Leave us a review on Google Play, it means a lot!',
      ].join('<br>'),
      screenshots: phone(6),
    },
  },
  {
    id: 'receitas-pt',
    why: 'Portuguese Play listing',
    language: 'pt',
    details: {
      id: 'com.example.receitas', title: 'Receitas da Vovó', genre: 'Comidas e bebidas', genreId: 'FOOD_AND_DRINK',
      summary: 'Receitas caseiras fáceis de fazer', rating: 4.7, ratingCount: 56000, currency: 'BRL',
      descriptionHtml: [
        'Receitas da Vovó reúne as receitas caseiras que você ama.',
        '• Mais de 5.000 receitas com fotos',
        '• Lista de compras automática',
        '• Modo passo a passo para cozinhar sem erro',
        '• Salve suas receitas favoritas',
      ].join('<br>'),
      screenshots: phone(5),
    },
  },
  {
    id: 'filebox',
    why: 'file manager with a rate-us line and a permissions note',
    details: {
      id: 'com.example.filebox', title: 'FileBox File Manager', genre: 'Tools', genreId: 'TOOLS',
      summary: 'Find, clean and share your files', rating: 4.4, ratingCount: 1200000,
      descriptionHtml: [
        'FileBox shows everything on your phone in one clean place.',
        'Free up storage by finding large and duplicate files.',
        'Send files to nearby devices without mobile data.',
        'Open ZIP and RAR archives.',
        'If you like FileBox, please rate us 5 stars ★★★★★',
        'FileBox needs the storage permission to manage your files.',
      ].join('<br>'),
      screenshots: phone(6),
    },
  },
  {
    id: 'doodle',
    why: 'sparse kids app: one line',
    details: {
      id: 'com.example.doodle', title: 'Doodle Kids', genre: 'Educational', genreId: 'GAME_EDUCATIONAL',
      summary: null, rating: 4.1, ratingCount: 3000,
      descriptionHtml: 'A drawing app for kids.',
      screenshots: phone(3),
    },
  },
  {
    id: 'pulse-tablet',
    why: 'fitness app with tablet shots only',
    details: {
      id: 'com.example.pulse', title: 'Pulse HIIT Workouts', genre: 'Health & Fitness', genreId: 'HEALTH_AND_FITNESS',
      summary: '7-minute workouts, no equipment', rating: 4.6, ratingCount: 91000,
      descriptionHtml: [
        'Pulse gives you short, intense workouts you can do anywhere.',
        '• 7-minute workouts with a coach\'s voice',
        '• Plans for beginners through to athletes',
        '• Heart-rate zones with your watch',
        '• Track calories and streaks',
      ].join('<br>'),
      screenshots: [[2560, 1600], [2560, 1600], [2560, 1600]],
    },
  },
  {
    id: 'scanly',
    why: 'document scanner, long prose with a numbered how-to',
    details: {
      id: 'com.example.scanly', title: 'Scanly - PDF Scanner', genre: 'Business', genreId: 'BUSINESS',
      summary: 'Scan documents to PDF in seconds', rating: 4.7, ratingCount: 640000,
      descriptionHtml: [
        'Scanly turns your phone into a fast document scanner.',
        'Step 1: Point your camera at a page',
        'Step 2: Scanly finds the edges and straightens it',
        'Step 3: Share it as a PDF or JPG',
        'Text recognition (OCR) makes every scan searchable. Sign contracts with your finger and fill in forms without printing.',
      ].join('<br>'),
      screenshots: phone(5),
    },
  },
  {
    id: 'chessmate',
    why: 'board game, paid, with capitals in the title',
    details: {
      id: 'com.example.chessmate', title: 'CHESSMATE Pro', genre: 'Board', genreId: 'GAME_BOARD',
      summary: 'Learn, play and analyse chess', rating: 4.8, ratingCount: 12000, priceMicros: 3990000,
      descriptionHtml: [
        'Play chess against a strong engine that adapts to your level.',
        'Solve 10,000 puzzles sorted by theme.',
        'Analyse your games move by move with clear explanations.',
        'Learn openings with interactive lessons.',
        'No ads, ever.',
      ].join('<br>'),
      screenshots: phone(6),
    },
  },
];
