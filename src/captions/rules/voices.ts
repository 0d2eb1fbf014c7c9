/**
 * The five caption voices as phrase-level transformations. A voice never glues a fixed opener to
 * any phrase: it picks a framing by the phrase's shape (an imperative can be urged, a noun phrase
 * offered, a clause stated), sets the case and the ending, and decides whether it says a feature
 * whole or in its shorter form. `{p}` is the listing's phrase and `{done}` an imperative phrase said
 * as its result ("Unlimited habits. Tracked."); `{name}`, `{rating}`, `{count}`, `{n}` come from
 * the listing. Every other word of a template is the voice's own vocabulary.
 */
import type { CaptionStyle } from '../../core/set.ts';
import type { Casing } from '../text.ts';
import type { Shape } from '../understand.ts';

export interface Voice {
  casing: Casing;
  /** Appended to a headline whose template has no ending of its own. */
  end: '' | '.' | '!';
  subEnd: '' | '.';
  /** aso-expert leads with the keyword-richest phrases; the others keep the listing's order. */
  order: 'score' | 'source';
  /** Say a feature in its shorter whole form first ("Smart reminders"), or whole first. */
  prefer: 'core' | 'whole';
  hero: string[];
  feature: Record<Shape, string[]>;
  step: string[];
  /** A problem slide whose question is too long for a headline frames it with these; the question becomes the subheadline. */
  problem: string[];
  socialProof: string[];
  /** Under a call to action, the store's figures in one line (when no proof slide quoted them). */
  socialProofSub: string;
  /**
   * A long proof slide says the rating once: its headline the rating, its subheadline how many
   * rated (a headline and a subheadline both stating "4.6" is an echo a copywriter rejects).
   */
  socialProofLong: string[];
  socialProofLongSub: string;
  callToAction: string[];
  /**
   * The call to action's subheadline when the set has nothing better under it: '' for none. A second
   * call ("Start today with {name}" under "Get started with {name}") says the headline twice.
   */
  callToActionSub: string;
}

/** A template's slot: `{p}`, `{name}`… (global: for replace only). */
export const SLOT = /\{(\w+)\}/g;

export const VOICES: Record<CaptionStyle, Voice> = {
  'aso-expert': {
    casing: 'title',
    end: '',
    subEnd: '.',
    order: 'score',
    prefer: 'whole',
    hero: ['{name}: {p}', '{p}'],
    feature: { imperative: ['{p}'], noun: ['{p}'], clause: ['{p}'] },
    step: ['Step {n}: {p}', '{n}. {p}'],
    problem: ['Sound Familiar?'],
    // Not "Rated … Ratings": "rate" twice in one line is an echo (third to fifth reads, D).
    socialProof: ['{rating}★ from {count} Ratings', '{rating}★ Average Rating'],
    socialProofSub: '{rating} out of 5 from {count} ratings',
    socialProofLong: ['Rated {rating}★ on Average', '{rating}★ Average Rating'],
    socialProofLongSub: 'From {count} ratings',
    callToAction: ['Download {name} Today', 'Get {name} Today', 'Download {name}'],
    callToActionSub: '',
  },
  minimal: {
    casing: 'sentence',
    end: '',
    subEnd: '',
    order: 'source',
    prefer: 'core',
    hero: ['{p}'],
    feature: { imperative: ['{p}'], noun: ['{p}'], clause: ['{p}'] },
    step: ['{n}. {p}'],
    problem: ['Sound familiar?'],
    socialProof: ['{rating} stars, {count} ratings', 'Rated {rating}'],
    socialProofSub: '{rating} out of 5 from {count} ratings',
    socialProofLong: ['{rating} stars', 'Rated {rating}'],
    socialProofLongSub: 'From {count} ratings',
    callToAction: ['Get {name}', 'Try {name}'],
    callToActionSub: '',
  },
  playful: {
    casing: 'sentence',
    end: '!',
    subEnd: '.',
    order: 'source',
    prefer: 'whole',
    hero: ['{p}'],
    feature: {
      imperative: ['Go ahead, {p}', '{p}', 'Now you can {p}'],
      noun: ['{p}, ready when you are', '{p}, right at your fingertips', '{p}'],
      clause: ['{p}'],
    },
    step: ['Step {n}: {p}', '{n}. {p}'],
    problem: ['Sound familiar?', 'Been there?'],
    // "and counting" fits a count that grows, never a rating ("4.8 stars and counting", second recordings read, G).
    socialProof: ['{rating} stars from {count} ratings', '{count} ratings and counting'],
    socialProofSub: '{rating} out of 5 from {count} ratings, and we’re blushing',
    socialProofLong: ['{rating} stars', 'Rated {rating}'],
    socialProofLongSub: '{count} ratings, and we’re blushing',
    // The last fits a short headline with a three-word name ("Try Wayfarer Trip Planner!").
    callToAction: ['Go on, try {name}', 'Give {name} a whirl', 'Your turn: get {name}', 'Try {name}'],
    callToActionSub: '',
  },
  bold: {
    casing: 'upper',
    end: '.',
    subEnd: '.',
    order: 'source',
    prefer: 'core',
    hero: ['{p}', '{name}. {p}'],
    feature: { imperative: ['{done}', '{p}'], noun: ['{p}'], clause: ['{p}'] },
    step: ['Step {n}: {p}', '{n}. {p}'],
    problem: ['Sound familiar?'],
    socialProof: ['{rating} stars', '{count} ratings', 'Rated {rating}'],
    socialProofSub: '{rating} out of 5 from {count} ratings',
    socialProofLong: ['{rating} stars', 'Rated {rating}'],
    socialProofLongSub: 'From {count} ratings',
    callToAction: ['Get {name} now', 'Get {name}'],
    callToActionSub: '',
  },
  professional: {
    casing: 'sentence',
    end: '.',
    subEnd: '.',
    order: 'source',
    prefer: 'whole',
    hero: ['{p}'],
    // The phrase as the listing says it: "Recruit knights with Ironvale." pads a feature with the name
    // the store's page shows beside it (M in every read), and padded a hero's line said again.
    feature: { imperative: ['{p}'], noun: ['{p}'], clause: ['{p}'] },
    step: ['Step {n}: {p}', '{n}. {p}'],
    problem: ['A familiar problem?'],
    socialProof: ['{rating} out of 5 from {count} ratings', 'Average rating of {rating}'],
    socialProofSub: 'An average rating of {rating} out of 5 from {count} ratings',
    socialProofLong: ['An average rating of {rating} out of 5', 'Rated {rating} out of 5'],
    socialProofLongSub: 'From {count} ratings',
    // The last two fit a short headline with a two- or three-word name ("Download Skycast Weather.", "Get Wayfarer Trip Planner.").
    callToAction: ['Get started with {name}', 'Start with {name} today', 'Download {name} today', 'Download {name}', 'Get {name}'],
    callToActionSub: '',
  },
};

/**
 * A listing in another language gets no English framing words: captions are its own phrases, and
 * the voices differ only in casing, punctuation and which form of a phrase they pick.
 */
export const FOREIGN: Pick<
  Voice,
  'hero' | 'feature' | 'step' | 'problem' | 'socialProof' | 'socialProofLong' | 'socialProofLongSub' | 'callToAction'
> = {
  hero: ['{p}', '{name}: {p}'],
  feature: { imperative: ['{p}'], noun: ['{p}'], clause: ['{p}'] },
  step: ['{n}. {p}'],
  problem: [],
  // No words of the voice's language for ratings: the rating alone. A count needs its noun: "12K+ ★"
  // reads as twelve thousand stars, "4,8 ★ · 7K+" as seven thousand of something (held-out read, W).
  socialProof: ['{rating} ★'],
  socialProofLong: ['{rating}/5 ★', '{rating} ★'],
  // Empty: the long proof slide stands on its rating (a subheadline may be null).
  socialProofLongSub: '',
  // A call to action needs the language's words for it (LOCALE_WORDS): the app's name alone asks nothing.
  callToAction: [],
};

/**
 * A long proof slide in the listing's language, where the writer knows its words: "4,6 von 5
 * Sternen / Über 5.000 Bewertungen" rather than "4.6/5 ★ / 5K+ ★", which a shopper reads as symbols,
 * not as a reason (issue 33). The rating takes the language's decimal comma (`comma`). Japanese,
 * Chinese and Korean count in their own units ("1.2万件以上の評価", not "12K+ ★"): `count` writes
 * the store's figure so. Elsewhere, FOREIGN.
 *
 * `ask`: the language's own call to action ("Descarga {name}"): a slide that says only the app's
 * name asks nothing (issue 33, held-out read); where the writer knows no such words the set shows
 * a feature instead of an ask.
 */
interface LocaleWords {
  /** A short proof slide: the rating, and the count with the language's word for ratings (a spaced "·" is a bullet in Latin script). */
  short: string[];
  long: string[];
  sub: string;
  ask: string[];
  comma?: boolean;
  /** The store's count ("7K+") in the language's words: "más de 7000" (`count`), "+7000" (`plus`, a short headline's room). */
  count?: (figure: string) => string;
  plus?: (figure: string) => string;
}

/** "12K+" (understand.ts formatCount) back to the store's figure, rounded down as it was written, and whether it was. */
function figure(count: string): { n: number; more: boolean } | null {
  const m = /^(\d+(?:\.\d+)?)([KMB])?(\+)?$/.exec(count.trim());
  if (!m) return null;
  const unit = m[2] === 'K' ? 1e3 : m[2] === 'M' ? 1e6 : m[2] === 'B' ? 1e9 : 1;
  return { n: Math.round(Number(m[1]) * unit), more: !!m[3] };
}

/** A count of ratings in a language that counts in ten-thousands (万/만), with its words for "and more" and its counter. */
const unitCount =
  (locale: string, more: string, counter: string) =>
  (count: string): string => {
    const f = figure(count);
    if (!f) return count;
    const compact = new Intl.NumberFormat(locale, {
      notation: 'compact',
      maximumFractionDigits: 1,
      roundingMode: 'floor',
    } as Intl.NumberFormatOptions).format(f.n);
    return f.more ? `${compact}${counter}${more}` : `${f.n}${counter}`;
  };

/**
 * A count of ratings in a language that writes numbers whole ("De 7K+ valoraciones" was English
 * notation in Spanish: third held-out read, L): the store's figure as rounded down, in the locale's
 * digits, after its words for "more than" ("Más de 7000 valoraciones", as the English line says
 * "From 7K+ ratings"), or with the "+" where the locale writes it in a short headline ("+7000").
 */
const wholeCount = (locale: string, more: string, plusAfter = false): Pick<LocaleWords, 'count' | 'plus'> => {
  const said = (count: string, form: (n: string) => string): string => {
    const f = figure(count);
    if (!f) return count;
    const n = new Intl.NumberFormat(locale).format(f.n);
    return f.more ? form(n) : n;
  };
  return {
    count: (c) => said(c, (n) => `${more} ${n}`),
    plus: (c) => said(c, (n) => (plusAfter ? `${n}+` : `+${n}`)),
  };
};

const LOCALE_WORDS: Record<string, LocaleWords> = {
  de: {
    short: ['{rating} ★ aus {plus} Bewertungen', '{rating} ★'],
    long: ['{rating} von 5 Sternen', '{rating} Sterne'],
    sub: '{count} Bewertungen',
    ask: ['{name} jetzt laden', 'Hol dir {name}'],
    comma: true,
    ...wholeCount('de', 'über', true),
  },
  fr: {
    short: ['{rating} ★ sur {plus} avis', '{rating} ★'],
    long: ['{rating} sur 5 étoiles', '{rating} étoiles'],
    sub: '{count} avis',
    ask: ['Téléchargez {name}', 'Essayez {name}'],
    comma: true,
    ...wholeCount('fr', 'plus de'),
  },
  es: {
    short: ['{rating} ★ de {plus} valoraciones', '{rating} ★'],
    long: ['{rating} de 5 estrellas', '{rating} estrellas'],
    sub: '{count} valoraciones',
    ask: ['Descarga {name}', 'Prueba {name}'],
    comma: true,
    ...wholeCount('es', 'más de'),
  },
  it: {
    short: ['{rating} ★ da {plus} recensioni', '{rating} ★'],
    long: ['{rating} su 5 stelle', '{rating} stelle'],
    sub: '{count} recensioni',
    ask: ['Scarica {name}', 'Prova {name}'],
    comma: true,
    ...wholeCount('it', 'oltre'),
  },
  pt: {
    short: ['{rating} ★ de {plus} avaliações', '{rating} ★'],
    long: ['{rating} de 5 estrelas', '{rating} estrelas'],
    sub: '{count} avaliações',
    ask: ['Baixe {name}', 'Experimente {name}'],
    comma: true,
    ...wholeCount('pt', 'mais de'),
  },
  nl: {
    short: ['{rating} ★ uit {plus} beoordelingen', '{rating} ★'],
    long: ['{rating} van 5 sterren', '{rating} sterren'],
    sub: '{count} beoordelingen',
    ask: ['Download {name}', 'Probeer {name}'],
    comma: true,
    ...wholeCount('nl', 'meer dan', true),
  },
  ja: {
    short: ['{rating} ★ · {count}の評価', '{rating} ★'],
    long: ['5点満点中{rating}点', '評価{rating}点'],
    sub: '{count}の評価',
    ask: ['{name}を今すぐダウンロード', '{name}をダウンロード'],
    count: unitCount('ja', '以上', '件'),
  },
  zh: {
    short: ['{rating} ★ · {count}评分', '{rating} ★'],
    long: ['{rating}分（满分5分）', '{rating}分'],
    sub: '来自{count}评分',
    ask: ['立即下载{name}', '下载{name}'],
    count: unitCount('zh', '多', '条'),
  },
  ko: {
    short: ['{rating} ★ · {count}의 평가', '{rating} ★'],
    long: ['5점 만점에 {rating}점', '{rating}점'],
    sub: '{count}의 평가',
    ask: ['지금 {name} 받기', '{name} 받기'],
    count: unitCount('ko', ' 이상', '개'),
  },
};

/** The frames of a listing in `language` (not English), and how it writes a rating ("4,6") and its count ("1.2万件以上"). */
export function foreignFrames(language: string): {
  frames: typeof FOREIGN;
  rating: (value: string) => string;
  count: (figure: string) => string;
  plus: (figure: string) => string;
} {
  const words = LOCALE_WORDS[language];
  if (!words) return { frames: { ...FOREIGN, callToAction: [] }, rating: (v) => v, count: (c) => c, plus: (c) => c };
  const count = words.count ?? ((c: string) => c);
  return {
    frames: { ...FOREIGN, socialProof: words.short, socialProofLong: words.long, socialProofLongSub: words.sub, callToAction: words.ask },
    rating: (v) => (words.comma ? v.replace('.', ',') : v),
    count,
    plus: words.plus ?? count,
  };
}

/** The words a listing in `language` may get from its frames (the rating's and the ask's, where the writer knows them). */
export function foreignVocabulary(language: string): Set<string> {
  const w = LOCALE_WORDS[language];
  // A count in units ("1万件以上") is the frame's; "más de", "mais de" before a whole count are the
  // language's own words, which a listing says too ("Mais de 5.000 receitas" is no frame).
  const units = w && !w.plus ? (w.count?.('10K+') ?? '') : '';
  const text = w ? [...w.short, ...w.long, w.sub, ...w.ask, units].join(' ').replace(SLOT, ' ') : '';
  return new Set((text.match(/[\p{L}\p{N}]+/gu) ?? []).map((x) => x.toLowerCase()));
}

/**
 * The words every voice's feature frames put around a phrase ("Go ahead,", "Now you can", ", right at
 * your fingertips"): they say nothing of the feature, so a slide's topic is read without them.
 */
export function openerVocabulary(): Set<string> {
  const text = Object.values(VOICES)
    .flatMap((v) => Object.values(v.feature).flat())
    .join(' ')
    .replace(SLOT, ' ');
  return new Set((text.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase()));
}

/** Every fixed word the templates can add, per voice: the only words a caption may use that the listing does not. */
export function voiceVocabulary(style: CaptionStyle): Set<string> {
  const v = VOICES[style];
  const text = [
    ...v.hero,
    ...Object.values(v.feature).flat(),
    ...v.step,
    ...v.problem,
    ...v.socialProof,
    v.socialProofSub,
    ...v.socialProofLong,
    v.socialProofLongSub,
    ...v.callToAction,
    v.callToActionSub,
  ]
    .join(' ')
    .replace(SLOT, ' ');
  return new Set((text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? []).map((w) => w.toLowerCase()));
}
