/**
 * The five caption voices as data. Templates hold the voice's own fixed words; `{p}` is a listing
 * phrase (the only part that may be shortened, word by word), `{name}`, `{category}`, `{rating}`,
 * `{count}` and `{n}` are filled from the listing. A template ending in . ! or ? keeps its own ending.
 * A "V:" template only takes phrases that start with a verb, an "N:" template only the others.
 */
import type { Role } from './narratives.ts';
import type { CaptionStyle } from './types.ts';
import type { Casing } from './text.ts';

export type TemplateRole = Role | 'generic';

export interface Voice {
  casing: Casing;
  /** Appended to a headline whose template has no ending of its own. */
  end: '' | '.' | '!';
  subEnd: '' | '.';
  /** Which form of a phrase the voice reaches for first. */
  prefer: 'text' | 'clause';
  /** Most words of a listing phrase in one headline. */
  maxWords: number;
  /** aso-expert leads with the keyword-richest phrases; the others keep the listing's order. */
  order: 'score' | 'source';
  templates: Record<TemplateRole, string[]>;
  subTemplates: { socialProof: string; generic: string };
}

export const VOICES: Record<CaptionStyle, Voice> = {
  'aso-expert': {
    casing: 'title', end: '', subEnd: '.', prefer: 'text', maxWords: 7, order: 'score',
    templates: {
      hero: ['{name}: {p}', '{p}', 'The {category} App for You'],
      feature: ['{p}', '{p} with {name}'],
      benefit: ['{p}'],
      'social-proof': ['Rated {rating}★ by {count} Users', '{rating}★ from {count} Ratings', 'Loved by {count} Users'],
      'how-it-works': ['Step {n}: {p}', '{n}. {p}'],
      problem: ['{p}?', 'Still Doing It the Hard Way?'],
      solution: ['{name} Makes It Easy', '{p}', 'Meet {name}'],
      'call-to-action': ['Download {name} Today', 'Get {name} Today', 'Download Now'],
      generic: ['Meet {name}', 'The {category} App', '{name} for {category}', 'Your {category} Companion', 'See {name} in Action',
        'Discover {name}', 'Explore {name}', 'Take a Closer Look', 'Everything in One App', 'Try {name} Today', 'Get Started Today', 'Made for Everyday Use', 'All in One Place'],
    },
    subTemplates: { socialProof: 'Rated {rating} out of 5 from {count} ratings', generic: '{name} for {category}' },
  },
  minimal: {
    casing: 'sentence', end: '', subEnd: '', prefer: 'clause', maxWords: 5, order: 'source',
    templates: {
      hero: ['{name}', '{p}'],
      feature: ['{p}'],
      benefit: ['{p}'],
      'social-proof': ['{rating} stars, {count} ratings', 'Rated {rating}'],
      'how-it-works': ['{n}. {p}'],
      problem: ['{p}?', 'Too much to manage?'],
      solution: ['{p}', 'Meet {name}'],
      'call-to-action': ['Get {name}', 'Try {name}', 'Get started'],
      generic: ['{name}', 'Meet {name}', '{category}', 'Made for {category}', 'Simply {name}', 'A closer look', 'See it in action', 'All in one place',
        'Try it today', 'Start today', 'Take a look', 'One app', 'Just {name}'],
    },
    subTemplates: { socialProof: '{rating} out of 5 from {count} ratings', generic: '{name} for {category}' },
  },
  playful: {
    casing: 'sentence', end: '!', subEnd: '.', prefer: 'clause', maxWords: 6, order: 'source',
    templates: {
      hero: ['Say hello to {name}', 'Meet {name}, your new sidekick', '{p}, the fun way'],
      feature: ['{p}, yay', 'Psst… {p}', 'Ta-da: {p}', 'Oh hey, {p}', '{p}, just like that', 'Yep, {p}'],
      benefit: ['Imagine: {p}', '{p}, happy days', 'Ahh, {p}'],
      'social-proof': ['{count} fans can’t be wrong', '{rating} stars and counting', 'Rated {rating} stars, woohoo'],
      'how-it-works': ['Step {n}: {p}', '{n}. {p}'],
      problem: ['{p}? Ugh.', 'Ugh, sound familiar?'],
      solution: ['{name} to the rescue', 'Enter {name}'],
      'call-to-action': ['Go on, try {name}', 'Give {name} a whirl', 'Your turn: get {name}'],
      generic: ['Hello, {name}', 'Peek inside {name}', 'Look, it’s {name}', 'Ready, set, {name}', 'Tap, tap, hooray', 'A little {category} magic',
        'Psst… over here', 'Good vibes only', 'Wait, there’s more', 'And that’s not all', 'Ooh, shiny', 'Oh hi, {category} fans', 'High five'],
    },
    subTemplates: { socialProof: '{rating} out of 5 from {count} ratings, and we’re blushing', generic: '{name}, made for {category} fans' },
  },
  bold: {
    casing: 'upper', end: '.', subEnd: '.', prefer: 'clause', maxWords: 4, order: 'source',
    templates: {
      hero: ['{name}. {p}', '{p}', 'This is {name}'],
      feature: ['{p}', 'V:{p}. Now', 'N:Get {p}'],
      benefit: ['{p}'],
      'social-proof': ['{rating} stars', '{count} ratings', 'Rated {rating}'],
      'how-it-works': ['Step {n}: {p}', '{n}. {p}'],
      problem: ['{p}?', 'No more hassle'],
      solution: ['{p}', '{name} fixes it'],
      'call-to-action': ['Get {name} now', 'Get {name}', 'Download now'],
      generic: ['{name}', 'Meet {name}', 'Pure {category}', 'Built for {category}', 'Go further', 'Do more', 'Level up', 'Stand out', 'Move fast',
        'Start now', 'See more', 'Try it now', 'Own it'],
    },
    subTemplates: { socialProof: '{rating} out of 5 from {count} ratings', generic: '{name} for {category}' },
  },
  professional: {
    casing: 'sentence', end: '.', subEnd: '.', prefer: 'text', maxWords: 8, order: 'source',
    templates: {
      hero: ['{name}: {p}', '{p}', '{name} for {category}'],
      feature: ['{p}', 'N:{p}, included', 'V:{p} in {name}'],
      benefit: ['{p}'],
      'social-proof': ['Rated {rating} by {count} users', 'Trusted by {count} users', 'Average rating of {rating}'],
      'how-it-works': ['Step {n}: {p}', '{n}. {p}'],
      problem: ['{p}?', 'A common challenge, addressed'],
      solution: ['{p}', '{name} addresses it'],
      'call-to-action': ['Get started with {name}', 'Start with {name} today', 'Download {name} today'],
      generic: ['{name} at a glance', 'Designed for {category}', 'A closer look at {name}', '{name} in detail', 'An overview of {name}',
        'Thoughtfully designed', 'Clear and focused', 'Ready when you are', 'Everything in one place', 'Built for {category}', 'Get started today', 'Learn more inside'],
    },
    subTemplates: { socialProof: 'An average rating of {rating} out of 5 from {count} ratings', generic: '{name} for {category}' },
  },
};

/**
 * A listing in another language gets no English framing words: captions are its own phrases, and the
 * voices differ only in casing, punctuation and which phrases they pick.
 */
export const FOREIGN_TEMPLATES: Record<TemplateRole, string[]> = {
  hero: ['{p}', '{name}: {p}', '{name}'],
  feature: ['{p}'],
  benefit: ['{p}'],
  'social-proof': ['{rating} ★ · {count}', '{rating} ★'],
  'how-it-works': ['{n}. {p}', '{p}'],
  problem: ['{p}?', '{p}'],
  solution: ['{p}'],
  'call-to-action': ['{name}', '{name} · {category}', '{category}'],
  generic: ['{name}', '{category}', '{name} · {category}', '{category} · {name}', '{p}'],
};

/** Every fixed word the templates can add, per voice: the only words a caption may use that the listing does not. */
export function voiceVocabulary(style: CaptionStyle): Set<string> {
  const v = VOICES[style];
  const text = [...Object.values(v.templates).flat(), v.subTemplates.socialProof, v.subTemplates.generic].map((t) => t.replace(/^[VN]:/, '')).join(' ').replace(/\{\w+\}/g, ' ');
  return new Set((text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? []).map((w) => w.toLowerCase()));
}
