/**
 * The one caption checker. Every caption passes it before it ships, whoever wrote it: the model,
 * the rule writer or (for the revision editor) a person. It is the only place a caption rule
 * lives; writers may ask it, never re-implement it, and the corpus report (`npm run plan:report`,
 * `npm run eval:captions`) grades with it too. docs/captions.md lists each finding.
 *
 * Two levels: a caption's findings (`checkCaptions`, `CaptionChecker`), some of which read the set
 * so far (repeat, one-feature, value-first); and a finished set's (`checkSet`), which adds what only
 * the planned set shows: its screens.
 */
import { createHash } from 'node:crypto';
import { nlp } from '../nlp.ts';
import type { Listing } from '../../core/listing.ts';
import { hasMarkup, NEGATIVE, notAFeature } from '../clean.ts';
import { cutFromSource, echoes, hasStraySymbol, incompleteness, sameTopic, substance, URLISH } from './complete.ts';
import { claimSources, ungroundedClaims, type ClaimSources } from './claims.ts';
import { foreignFrames, foreignVocabulary, openerVocabulary, voiceVocabulary } from '../rules/voices.ts';
import { fitOf } from './fit.ts';
import { captionWidth, languageOf } from '../../core/locales.ts';
import { type Role } from '../../core/narratives.ts';
import { languageFinding } from './language.ts';
import { CUT_LANGUAGES, cutPhrase, leansOnPronoun, sentenceCutFrom, sentenceWords, type Sentence } from './cut.ts';
import { brokenFrame } from './frames.ts';
import { namesOnly, offRole } from './selling.ts';
import { contradictedProof, MIN_RATINGS, ratingTwice } from './proof.ts';
import { punctuationFault } from './typography.ts';
import {
  heroSaysAgain,
  repeatsHero,
  restatesHero,
  saysAgain,
  seamEcho,
  secondCall,
  stockAction,
  stockVerb,
  type HeroWords,
} from './echo-pair.ts';
import { seriesOf, seriesOfCaption } from './series.ts';
import { primaryListing } from '../../core/listing.ts';
import { CASED_WORD, contentWords, dangles, endWords, mentionsFree, normalise, textKey, words as textWords } from '../text.ts';
import { CAPTION_LENGTHS, type CaptionLength, type CaptionStyle, type PlanInput, type ScreenshotSetResult } from '../../core/set.ts';
import { DEVICES, type Device } from '../../core/devices.ts';
import { understand, type Understanding } from '../understand.ts';

export const FINDINGS = {
  shape:
    'The caption has the parts its length asks for (no subheadline when short; when long, one on the hero, and elsewhere one or null, never empty).',
  fits: 'Fits its lines at the set’s type size, measured with the renderer’s fonts, and within the length’s characters.',
  complete: 'A finished phrase or sentence: no dangling word, no cut, no ellipsis.',
  echo: 'The subheadline adds to its headline instead of repeating it.',
  repeat: 'Says something no other slide of the set says.',
  generic: 'Says something about this app, not only its name or category in a template.',
  grounded: 'Every number, rating, award, platform and feature it claims is in the listing, extraContext or the screens’ text.',
  'policy.free': 'Does not call a paid app free.',
  'policy.price': 'Names no price.',
  'policy.platform': 'Names no other store’s platform.',
  'policy.review': 'Does not ask for ratings or reviews.',
  'policy.other-app': 'Does not advertise the developer’s other apps.',
  'policy.hidden': 'No hidden tags, invisible or look-alike characters, URLs or markup.',
  language: 'Written in the language of its locale.',
  style: 'No stray symbols, no shouting in capitals outside the bold voice, brands spelt as the listing spells them.',
  tone: 'No complaint or pain question outside a problem slide.',
  'one-feature': 'A feature slide shows one feature (no list of actions), and not the feature of an earlier slide.',
  'value-first': 'Each of the first three slides, proof and problem aside, carries the value, not the name or category alone.',
  cut: 'Not a listing sentence cut where its phrase does not end, nor a pronoun pointing at a sentence it was cut from.',
  frame: 'No voice frame glued to a phrase it does not fit ("Yes, …", "Get <verb> …", "Now you can <noun>").',
  'off-role': 'A selling point: no heading, greeting, note, disclaimer, promo code or story lore ("Chapter 1 of the saga").',
  rating: 'A rating or count of ratings the store’s own figures do not contradict; proof slides only from 50 ratings up.',
  'echo-pair':
    'A call to action asks once: its subheadline is not a second call, and it does not say the hero’s promise again. A slide states its rating once.',
  screens:
    "Set level: no screenshot framed twice while others go unused, none of the other orientation while ones of the slides' go unused, a Mac listing warned about.",
} as const;
export type FindingId = keyof typeof FINDINGS;

export interface Finding {
  id: FindingId;
  field: 'headline' | 'subheadline' | 'screenshot';
  message: string;
  /** A case of a hard finding a copywriter lets pass where nothing better exists (`softFinding`). */
  soft?: true;
}

export interface CaptionToCheck {
  headline: string;
  subheadline: string | null;
  role: Role;
  /** Its place in the set, from 1; absent: right after the slides accepted so far. */
  index?: number;
}

export interface CheckContext {
  listings: Listing[];
  extraContext: string | null;
  device: Device;
  captionLength: CaptionLength;
  captionStyle: CaptionStyle;
  /** The locale the captions are in; absent: the listing's own language. */
  locale?: string | null;
  /** The words read off the set's screens (OCR): a caption may claim what a screen shows. */
  screenText?: string[] | null;
}

/**
 * A price is an amount of money ("$4.99", "20 € a year", "50% off"), not the word: "Price shop
 * with friends", "Compare prices" name none.
 */
const PRICE = /[$€£¥₹]\s?\d|\d\s?(?:[$€£¥₹]|usd|eur|gbp)(?!\p{L})|\b\d+\s?% off\b|\b(?:for only|just) [$€£¥₹]?\d/iu;
const OTHER_STORE = {
  'app-store': /\b(android|google play|play store|wear os|chromebook)\b/iu,
  'google-play': /\b(iphone|ipad|ios|ipados|app store|apple watch|watchos)\b/iu,
};
const REVIEW_BEGGING =
  /\b(rate us|rate (?:it|the app|this app)|leave (?:us )?a review|review us|give us \S+ stars?|5[- ]stars? (?:please|review)|write a review)\b/iu;
/**
 * "Enjoying TaskForge?", "Love Cartwheel?": a question about liking the app itself opens the
 * listing's review request ("… Leave us a review"), whose ask is in the next sentence; a shopper
 * has not used the app yet. A question about something else ("Love cooking?") may be a hook.
 */
const LIKES_APP = /^(?:enjoying|enjoy|love|loving|like|liking)\s+(.+?)\s*\?+$/iu;
function asksAboutTheApp(text: string, appName: Set<string>): boolean {
  const m = LIKES_APP.exec(text.trim());
  if (!m) return false;
  const named = textWords(normalise(m[1], { fold: true }));
  return named.length > 0 && named.every((w) => appName.has(w) || /^(the|this|our|app)$/.test(w));
}
/** Invisible, bidi control and Unicode tag characters: text a reader cannot see but a store can. */
/** Voices that never exclaim (rules/voices.ts: no "!" in their frames or ends). */
const CALM_VOICES = new Set<CaptionStyle>(['minimal', 'professional']);
const HIDDEN = /[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\u{E0000}-\u{E007F}]/u;
/** A word mixing Latin letters with Cyrillic or Greek ones: a look-alike ("Аpp" with a Cyrillic A). */
const MIXED_SCRIPT = /(?=[\p{L}\p{N}]*\p{Script=Latin})(?=[\p{L}\p{N}]*[\p{Script=Cyrillic}\p{Script=Greek}])[\p{L}\p{N}]+/u;
/** A writer that ran out of room ends on these rather than on a finished word. */
const LOOKS_CUT = /(\.\.\.|…|\s-)$/u;
/** Pronouns that need a noun said before them: a headline opening on one has none. */
const REFERRING = new Set(['it', "it's", 'it’s', 'its', 'they', "they're", 'they’re', 'them', 'their', 'he', 'she']);
const ASIDE_ROLES = new Set<Role>(['social-proof', 'call-to-action']);
const FEATURE_SLIDES = new Set<Role>(['feature', 'benefit', 'solution']);
/** Slides that are not about one feature: the one-feature check leaves them be. */
const NOT_A_FEATURE = new Set<Role>(['social-proof', 'call-to-action', 'problem']);
/** Three words or more in capitals in a row: shouting, which only the bold voice may do. */
const SHOUTING = /\p{Lu}{2,}(\s+\p{Lu}{2,}){2,}/u;
/** Two topics (a slide's content words) this alike are one feature shown twice. */
const SAME_FEATURE = 0.6;
const RELIEVED = /\b(?:without|no|sans|ohne|sin|senza|sem)\s+(?:the\s+|any\s+|le\s+|de\s+)?(?:stress\w*|hassle|headaches?|worr\w+)/giu;
/** The slides that must carry the value proposition: what a store visitor sees without scrolling. */
const VALUE_SLIDES = 3;
/** The voices' feature openers ("Go ahead,", "Now you can"): no part of what a slide says. */
const OPENERS = openerVocabulary();

/** Whether `text` says the words of `name` and no others ("Receitas da Vovó." of "Receitas da Vovó"). */
const sameWords = (text: string, name: string) => {
  const own = new Set(textWords(normalise(name, { fold: true })));
  return textWords(normalise(text, { fold: true })).every((w) => own.has(w));
};

interface Facts {
  u: Understanding;
  language: string;
  native: boolean;
  /** What a claim may rest on: the listing, extraContext and the screens' text (./claims.ts). */
  claims: ClaimSources;
  nameWords: Set<string>;
  /** The app's name's own words ("Where Am I? - GeoGuess Game": where, geoguess, game). */
  appNameWords: Set<string>;
  ownLines: Set<string>;
  otherApps: string[];
  store: 'app-store' | 'google-play';
  /** The names the tagger is told about, as part of a memo key. */
  properKey: string;
  /** Words the listing spells with inner capitals (iCloud, TaskForge), by their lower case. */
  brands: Map<string, string>;
  /** The listing's sentences as words, for the cut rule (./cut.ts). */
  sentences: Sentence[];
  /** Names the listing's text in a memo key: the cut rule's verdict depends on it. */
  sourceKey: string;
  /** The voice's own words and the app's name: what may frame the listing's words. */
  frameWords: Set<string>;
  /** The listing's series of sentences alike but for one slot: one list said item by item (./series.ts). */
  series: Map<string, number>;
  /** The store's own rating and count of ratings (a Mac listing's for an iPhone set: none). */
  storeFigures: { rating: number | null; ratingCount: number | null };
}

function factsOf(ctx: CheckContext): Facts {
  const primary = primaryListing(ctx.listings, ctx.device);
  const u = understand(ctx.listings, primary, ctx.extraContext);
  const language = ctx.locale ? languageOf(ctx.locale) : u.language;
  const texts = ctx.listings.flatMap((l) => [l.name, l.subtitle ?? '', l.description, l.category]);
  const claims = claimSources(
    [...texts, ctx.extraContext ?? '', ...(ctx.screenText ?? [])],
    [
      u.rating?.value,
      u.rating?.count,
      // "1.2万件以上": the count as a language that counts in ten-thousands writes it (rules/voices.ts).
      ...(u.rating
        ? (foreignFrames(u.language)
            .count(u.rating.count)
            .match(/\d+(?:[.,]\d+)?/g) ?? [])
        : []),
    ],
  );
  const lines = ctx.listings.flatMap((l) => l.description.split(/\n+/));
  // The developer's other apps, as the listing names them ("Also from us: Sleepwell, Focus Timer").
  const appName = new Set(contentWords(`${primary.name}`, u.language));
  const otherApps = lines
    .filter((line) => notAFeature(line) === 'other apps')
    .flatMap((line) => line.replace(/^[^:]*:/, '').match(/\p{Lu}[\p{L}\p{N}]+(?:\s+\p{Lu}[\p{L}\p{N}]+)*/gu) ?? [])
    .filter((n) => !contentWords(n, u.language).every((w) => appName.has(w)) && n.length >= 4);
  const sentences = sentenceWords(ctx.listings.flatMap((l) => [l.subtitle ?? '', l.description]));
  return {
    u,
    language,
    native: language === u.language,
    claims,
    nameWords: new Set([...contentWords(primary.name, u.language), ...contentWords(primary.category, u.language)]),
    appNameWords: appName,
    ownLines: new Set(ctx.listings.flatMap((l) => [l.subtitle ?? '', ...l.description.split(/\n|(?<=[.!?])\s+/)]).map(textKey)),
    otherApps,
    store: DEVICES[ctx.device].store,
    sentences,
    series: seriesOf(sentences.map((s) => s.text)),
    sourceKey: createHash('sha1').update(texts.join('\0')).digest('base64'),
    frameWords: new Set([...voiceVocabulary(ctx.captionStyle), ...foreignVocabulary(language), ...textWords(primary.name)]),
    storeFigures: { rating: primary.rating, ratingCount: primary.ratingCount },
    properKey: [...u.proper].sort().join(' '),
    brands: new Map(
      [...`${texts.join(' ')} ${ctx.extraContext ?? ''}`.matchAll(CASED_WORD)].flatMap((m) =>
        /\p{Ll}\p{Lu}/u.test(m[0]) ? [[m[0].toLowerCase(), m[0]] as const] : [],
      ),
    ),
  };
}

/**
 * The tagger's and the font's verdicts by text: a writer asks about the same words for every voice,
 * device and retry of a listing, and both are the slow part of a check. Bounded, oldest out.
 */
const verdicts = new Map<string, unknown>();
function memo<T>(key: string, compute: () => T): T {
  if (verdicts.has(key)) return verdicts.get(key) as T;
  const value = compute();
  if (verdicts.size >= 20_000) verdicts.delete(verdicts.keys().next().value as string);
  verdicts.set(key, value);
  return value;
}

function textFindings(text: string, field: 'headline' | 'subheadline', c: CaptionToCheck, ctx: CheckContext, f: Facts): Finding[] {
  const out: Finding[] = [];
  const add = (id: FindingId, message: string) => out.push({ id, field, message });
  const limit = CAPTION_LENGTHS[ctx.captionLength][field];
  const width = f.native ? [...text].length : captionWidth(text);
  if (width > limit) add('fits', `"${text}" is ${width} characters; ${ctx.captionLength} ${field}s hold ${limit}`);
  else {
    const fit = memo(`fit\0${field}\0${ctx.device}\0${ctx.captionLength}\0${text}`, () =>
      fitOf(text, field, ctx.device, ctx.captionLength),
    );
    if (fit.overflows) add('fits', `"${text}" has a word wider than the slide at ${fit.sizePx} px`);
    else if (fit.lines > fit.maxLines) add('fits', `"${text}" takes ${fit.lines} lines at ${fit.sizePx} px; it has ${fit.maxLines}`);
  }
  const incomplete = f.native
    ? memo(`complete\0${f.language}\0${f.properKey}\0${text}`, () => incompleteness(text, f.language, f.u.proper))
    : dangles(text, endWords(f.language))
      ? 'ends on a word that needs another'
      : null;
  if (incomplete)
    add(
      'complete',
      `"${text}" ${incomplete.startsWith('ends') || incomplete.startsWith('starts') ? incomplete : `is unfinished: ${incomplete}`}`,
    );
  else if (LOOKS_CUT.test(text.trim())) add('complete', `"${text}" looks cut off`);
  else if (field === 'subheadline' && f.native && cutFromSource(text, primaryListing(ctx.listings, ctx.device)))
    add('complete', `"${text}" is a listing sentence cut short`);
  // "It keeps your notes safe": a headline is read first, so a pronoun opening it points at nothing.
  if (field === 'headline' && f.native && f.language === 'en' && REFERRING.has(textWords(text)[0] ?? ''))
    add('complete', `"${text}" opens on "${text.split(' ')[0]}", which refers to nothing said before it`);
  if (HIDDEN.test(text)) add('policy.hidden', `"${text}" holds invisible or tag characters`);
  if (MIXED_SCRIPT.test(text)) add('policy.hidden', `"${text}" mixes look-alike letters of two scripts in one word`);
  if (URLISH.test(text) || hasMarkup(text)) add('policy.hidden', `"${text}" holds a URL, e-mail or markup`);
  if (!f.u.free && mentionsFree(text)) add('policy.free', `"${text}" says free, but the app is paid`);
  if (PRICE.test(text)) add('policy.price', `"${text}" names a price`);
  if (OTHER_STORE[f.store].test(text)) add('policy.platform', `"${text}" names another store’s platform`);
  if (REVIEW_BEGGING.test(text)) add('policy.review', `"${text}" asks for a rating or review`);
  else if (asksAboutTheApp(text, f.appNameWords))
    add('policy.review', `"${text}" asks whether the shopper enjoys the app: the opening of a review request, not a selling point`);
  for (const app of f.otherApps)
    if (text.toLowerCase().includes(app.toLowerCase())) add('policy.other-app', `"${text}" names the developer’s other app ${app}`);
  const lang = languageFinding(text, f.language);
  if (lang) add('language', `"${text}" ${lang}`);
  const marks = punctuationFault(text, f.language);
  if (marks) add('language', `"${text}" ${marks}`);
  if (hasStraySymbol(text)) add('style', `"${text}" holds a stray symbol`);
  // The minimal and professional voices do not exclaim: a listing's "!" kept there is the store's voice, not theirs.
  if (CALM_VOICES.has(ctx.captionStyle) && /[!！]$/u.test(text.trim())) add('style', `"${text}" exclaims in the ${ctx.captionStyle} voice`);
  if (ctx.captionStyle !== 'bold') {
    if (SHOUTING.test(text)) add('style', `"${text}" shouts in capitals`);
    for (const w of text.match(CASED_WORD) ?? []) {
      const brand = f.brands.get(w.toLowerCase());
      if (brand && w !== brand) add('style', `"${w}" should be spelt "${brand}"`);
    }
  }
  // "Sans stress", "without the hassle": a pain said as gone is a benefit, not a complaint.
  if (c.role !== 'problem' && NEGATIVE.test(text.replace(RELIEVED, ''))) add('tone', `"${text}" complains or asks outside a problem slide`);
  const off = offRole(text);
  if (off) add('off-role', `"${text}" is ${off}, not a selling point`);
  const contradicted = contradictedProof(text, f.storeFigures);
  if (contradicted) add('rating', `"${text}" ${contradicted}`);
  // French, Spanish, Portuguese and Italian captions are cut as English ones are ("Le mode" of "Le mode pas à pas").
  const cut =
    f.native && (f.language === 'en' || CUT_LANGUAGES.has(f.language))
      ? memo(`cut\0${f.language}\0${ctx.captionStyle}\0${f.sourceKey}\0${field === 'subheadline' ? c.headline : ''}\0${text}`, () =>
          cutPhrase(text, f.sentences, f.frameWords, field === 'subheadline' ? c.headline : undefined, f.language, f.appNameWords),
        )
      : null;
  if (cut) add('cut', `"${text}" ${cut}`);
  if (f.native && f.language === 'en') {
    if (!cut && field === 'headline') {
      const leans = leansOnPronoun(text);
      if (leans) add('cut', `"${text}" ${leans}`);
    }
    const frame = memo(`frame\0${text}`, () => brokenFrame(text, f.appNameWords));
    if (frame) add('frame', `"${text}": ${frame}`);
  }
  // Claims, not words: numbers and platforms read the same in any language (a translation is
  // checked for those), the rest in the listing's own.
  // The ask's subheadline may quote the rating too: the rule writer says it there when no slide
  // did (./rules/writer.ts, call-to-action), and refusing it left long sets ending on a bare ask
  // with an untrue "no line left" warning (fifth read, wayfarer and easyplanner).
  const quotes = c.role === 'social-proof' || (c.role === 'call-to-action' && field === 'subheadline');
  const proof = quotes && f.u.rating !== null;
  for (const message of ungroundedClaims(text, f.claims, { native: f.native, proof })) add('grounded', message);
  return out;
}

/**
 * "Track habits, set goals and view charts": three coordinated actions are three features. In
 * English an action is a verb with its own object ("Adjust light, colour and detail" does one
 * thing); elsewhere, with no tagger, three parts of two words or more.
 */
function listsSeveral(text: string, english: boolean): boolean {
  const parts = normalise(text, { fold: true })
    .split(/,\s*|\s+(?:and|or|&)\s+/i)
    .filter(Boolean);
  if (parts.length < 3) return false;
  if (!english) return parts.every((p) => p.split(' ').length >= 2);
  const actions = parts.filter((p) => {
    const terms = (nlp(p.toLowerCase()).json() as { terms: { tags: string[] }[] }[])[0]?.terms ?? [];
    return terms[0]?.tags.includes('Verb') && terms.slice(1).some((t) => t.tags.includes('Noun') && !t.tags.includes('Pronoun'));
  }).length;
  return actions >= 2;
}

/** The first word, past a voice's opener ("Go ahead,", "Now you can"), is a verb: the caption names an action. */
function opensOnAction(text: string): boolean {
  const bare = text.replace(/^(go ahead|now you can|yes)[,!]?\s+/i, '').toLowerCase();
  const first = (nlp(bare).json() as { terms: { tags: string[] }[] }[])[0]?.terms[0]?.tags ?? [];
  return first.includes('Verb') && !first.includes('Gerund');
}

/** "Trim clips and add music": a line of two to four parts, one of them an action. */
function listsActions(text: string): boolean {
  const parts = text
    .replace(/[.!]+$/, '')
    .split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+/i)
    .filter(Boolean);
  return parts.length >= 2 && parts.length <= 4 && parts.some(opensOnAction);
}

/**
 * Checks captions one after another, each against the ones accepted before it: what a writer
 * uses to keep only what passes, and what checkCaptions runs over a whole set.
 */
export class CaptionChecker {
  private readonly f: Facts;
  private readonly long: boolean;
  private readonly seen: { key: string; topic: Set<string>; slide: number; text: string }[] = [];
  /** The accepted slides' whole topics (headline and subheadline), for the one-feature check. */
  private readonly features: { slide: number; topic: Set<string>; series: number | null }[] = [];
  private slides = 0;
  /** The hero's topic: a call to action does not say it again; its words: a feature slide does not either. */
  private hero: { slide: number; topic: Set<string>; text: string; words: HeroWords; sub: string | null } | null = null;

  constructor(private readonly ctx: CheckContext) {
    this.f = factsOf(ctx);
    this.long = CAPTION_LENGTHS[ctx.captionLength].subheadline > 0;
  }

  private parts(c: CaptionToCheck) {
    const sub = c.subheadline?.trim() ? c.subheadline : null;
    return [{ field: 'headline' as const, text: c.headline }, ...(sub ? [{ field: 'subheadline' as const, text: sub }] : [])].map((t) => ({
      ...t,
      key: textKey(t.text),
      topic: substance(t.text, this.f.language, this.f.nameWords),
    }));
  }

  private position(c: CaptionToCheck): number {
    return c.index ?? this.slides + 1;
  }

  /** The findings on `c` as the next slide of the set (repeats judged against the accepted ones). */
  check(c: CaptionToCheck): Finding[] {
    const { f, ctx } = this;
    const out: Finding[] = [];
    if (!c.headline.trim()) out.push({ id: 'shape', field: 'headline', message: 'the headline is empty' });
    // A long slide may stand on its headline alone (subheadline null, CONTRACT: nullable) when the
    // listing has nothing whole to say under it; the writers prefer one wherever the listing gives
    // one, and the set warns which slides have none. Not the hero: the set's first words always
    // have a line under them (the subtitle, the promise, a spare sentence or the category).
    if (this.long && c.subheadline !== null && !c.subheadline.trim())
      out.push({ id: 'shape', field: 'subheadline', message: 'the subheadline is empty: write one or leave it null' });
    if (this.long && c.role === 'hero' && !c.subheadline?.trim())
      out.push({ id: 'shape', field: 'subheadline', message: 'a long set’s hero needs a subheadline' });
    if (!this.long && c.subheadline !== null)
      out.push({ id: 'shape', field: 'subheadline', message: 'short captions have no subheadline' });
    if (c.headline.trim()) out.push(...textFindings(c.headline, 'headline', c, ctx, f));
    const sub = c.subheadline?.trim() ? c.subheadline : null;
    if (sub) {
      out.push(...textFindings(sub, 'subheadline', c, ctx, f));
      const seam = seamEcho(c.headline, sub, f.language, f.nameWords);
      if (echoes(c.headline, sub)) out.push({ id: 'echo', field: 'subheadline', message: `"${sub}" repeats its headline’s words` });
      else if (seam) out.push({ id: 'echo', field: 'subheadline', message: seam });
      // By stem, on a slide showing one thing: the hero sums the app up ("The podcast player for
      // fans / Podnest is the podcast player that…") and the proof and the ask have their own rules.
      else if (f.native && c.role !== 'hero' && !ASIDE_ROLES.has(c.role)) {
        const again = saysAgain(c.headline, sub, f.language, new Set([...f.nameWords, ...f.frameWords]));
        if (again) out.push({ id: 'echo', field: 'subheadline', message: again });
      } else if (f.native && c.role === 'hero') {
        // The hero may name the app as its subtitle does, not say its headline's noun phrase twice.
        const again = heroSaysAgain(c.headline, sub, f.language, f.appNameWords);
        if (again) out.push({ id: 'echo', field: 'subheadline', message: again });
      }
      // "With Forkful.", "Social Networking.": a line of the app's name or category words alone
      // tells the shopper nothing the store's page does not; it pads the slide, it is no subheadline.
      if (namesOnly(sub, f.language, f.nameWords))
        out.push({ id: 'generic', field: 'subheadline', message: `"${sub}" only says the app’s name or category` });
    }
    for (const t of this.parts(c)) {
      // One shared word repeats a slide only when neither says much more ("Track habits" / "Track
      // habits daily"), not when it is one word of a line about something else ("One tap, one habit"
      // / "Widgets make a check-in one tap away").
      const alike = (a: Set<string>, b: Set<string>) => sameTopic(a, b) && (Math.min(a.size, b.size) > 1 || Math.max(a.size, b.size) <= 2);
      const twins = this.seen.filter((s) => s.key === t.key || (f.native && alike(s.topic, t.topic)));
      // Another slide's twin is named first: only the hero's alone may be a narrowing.
      const twin = twins.find((s) => s.slide !== this.hero?.slide) ?? twins[0];
      if (!twin) continue;
      // A feature headline naming one of the things the hero's line named ("Trim clips" after "Trim
      // clips and add music") narrows it rather than saying it again: soft (`softFinding`).
      const narrows = t.field === 'headline' && twin.slide === this.hero?.slide && this.narrowsHero(c, t.topic);
      out.push(
        narrows
          ? {
              id: 'repeat',
              field: t.field,
              message: `"${t.text}" shows one part of slide ${twin.slide}’s "${twin.text}" again`,
              soft: true,
            }
          : { id: 'repeat', field: t.field, message: `"${t.text}" says again slide ${twin.slide}’s "${twin.text}"` },
      );
    }
    if (f.native && c.headline.trim()) {
      // The headline is what is read: a good subheadline under "TommyRun: An App" does not save it.
      // A line of the listing's own is the developer's words, unless it is only the app's name again ("GeoGuess Game").
      const nameOnly = contentWords(c.headline, f.language).every((w) => f.appNameWords.has(w));
      const said = substance(c.headline, f.language, f.nameWords).size > 0 || (f.ownLines.has(textKey(c.headline)) && !nameOnly);
      if (!said && !ASIDE_ROLES.has(c.role))
        out.push({ id: 'generic', field: 'headline', message: `"${c.headline}" only says the app’s name or category` });
      // "ことば英単語", "Calma Diaria": an ask needs its verb ("Descarga…", "Get…"); the name alone asks nothing.
      // Every word, not its content words: "Get Framewise now" is an ask whose verb is a stop word.
      if (c.role === 'call-to-action' && nameOnly && sameWords(c.headline, f.u.name))
        out.push({ id: 'generic', field: 'headline', message: `"${c.headline}" says only the app’s name: it asks nothing` });
      // Not the ask after the opening slide: it closes a short set, where an ask belongs ("GET DOODLE
      // KIDS NOW." as slide 3 of 3 was warned as opening it, fifth read); alone it opens one.
      const closes = c.role === 'call-to-action' && this.position(c) > 1;
      if (!said && !closes && this.position(c) <= VALUE_SLIDES && c.role !== 'social-proof' && c.role !== 'problem')
        out.push({ id: 'value-first', field: 'headline', message: `"${c.headline}" opens the set without a value proposition` });
    }
    out.push(...this.oneFeature(c));
    // A feature slide that says the hero again, in its words or as the rest of its sentence (hard);
    // one of the things a hero listing actions named stays the soft narrowing the repeat above calls it.
    const hero = this.hero;
    if (f.native && hero && FEATURE_SLIDES.has(c.role) && this.position(c) !== hero.slide && c.headline.trim()) {
      const mine = substance(`${c.headline} ${sub ?? ''}`, f.language, new Set([...f.appNameWords, ...OPENERS]));
      const again = restatesHero(mine, hero.words);
      // A part of the hero's headline on its own slide may be the soft narrowing; a run of its
      // subheadline ("see every child's growth" of "…and see every child's growth on one clear chart") never.
      const bare = textKey(c.headline).split(' ');
      while (bare.length > 1 && OPENERS.has(bare[0])) bare.shift();
      const ofSub = hero.sub !== null && ` ${hero.sub} `.includes(` ${bare.join(' ')} `);
      const narrows = !ofSub && this.narrowsHero(c, substance(c.headline, f.language, new Set([...f.nameWords, ...OPENERS])));
      // In other forms of the hero's words only ("See every child's growth" / "…kids grow"): soft, a last resort.
      if (again && !narrows) {
        const soft = restatesHero(mine, hero.words, false) ? {} : { soft: true as const };
        out.push({ id: 'echo', field: 'headline', message: `"${c.headline}" ${again} (slide ${hero.slide}: "${hero.text}")`, ...soft });
      }
      // "Download offline maps" under "Offline trail maps": a narrowing whose only word of its own is
      // a stock verb says the hero again. Soft, the planner's last resort: a set of one listing that
      // says one thing twice ships it, warned, rather than be refused (third held-out read).
      else if (again && stockAction(c.headline, hero.text))
        out.push({
          id: 'echo',
          field: 'headline',
          message: `"${c.headline}" says slide ${hero.slide}’s "${hero.text}" again: its only word of its own is "${stockVerb(c.headline)}"`,
          soft: true,
        });
    }
    if (c.role === 'social-proof' && (f.storeFigures.ratingCount ?? 0) < MIN_RATINGS)
      out.push({
        id: 'rating',
        field: 'headline',
        message: `"${c.headline}" quotes proof the store does not give: fewer than ${MIN_RATINGS} ratings`,
      });
    const twice = ratingTwice(c.headline, sub);
    if (twice) out.push({ id: 'echo-pair', field: 'subheadline', message: twice });
    if (c.role === 'call-to-action') {
      const again = secondCall(c.headline, sub);
      if (again) out.push({ id: 'echo-pair', field: 'subheadline', message: again });
      const hero = this.hero && this.position(c) !== this.hero.slide ? repeatsHero(this.topic(c), this.hero.topic) : null;
      if (hero) out.push({ id: 'echo-pair', field: 'headline', message: `"${c.headline}" ${hero}` });
    }
    return out;
  }

  /**
   * A feature headline naming one of the things the hero's line named: an action on a slide of its
   * own, or one part of a hero that lists actions; never the hero's hook said again without it
   * ("Pro photo editing" after "Pro photo editing, no subscription").
   */
  private narrowsHero(c: CaptionToCheck, topic: Set<string>): boolean {
    const hero = this.hero;
    return (
      hero !== null &&
      FEATURE_SLIDES.has(c.role) &&
      topic.size > 0 &&
      topic.size < hero.topic.size &&
      [...topic].every((w) => hero.topic.has(w)) &&
      (opensOnAction(c.headline) || listsActions(hero.text))
    );
  }

  /** A feature slide names one thing, and not the thing of an earlier feature slide. */
  private oneFeature(c: CaptionToCheck): Finding[] {
    if (NOT_A_FEATURE.has(c.role) || !c.headline.trim()) return [];
    const out: Finding[] = [];
    const { language } = this.f;
    // The hero sums the app up ("Learn, play and analyse chess"); every other slide shows one thing.
    if (c.role !== 'hero' && memo(`several\0${language}\0${c.headline}`, () => listsSeveral(c.headline, language === 'en')))
      out.push({ id: 'one-feature', field: 'headline', message: `"${c.headline}" lists several features`, soft: true });
    // Alike words are one feature only in the listing's own language, as for repeat: a translation
    // keeps its source's distinct slides and may share the language's common words.
    if (!this.f.native) return out;
    // "Recruit archers" after "Recruit knights": two items of one list the listing says item by item.
    const series = this.seriesOf(c);
    const listed = series === null ? undefined : this.features.find((s) => s.series === series && s.slide !== this.position(c));
    if (listed)
      out.push({
        id: 'one-feature',
        field: 'headline',
        message: `"${c.headline}" names another item of the list slide ${listed.slide} names: one enumeration is one feature`,
      });
    const topic = this.topic(c);
    const alike = this.features.filter((s) => sameTopic(s.topic, topic, SAME_FEATURE, 2) && s.slide !== this.position(c));
    const same = alike.find((s) => s.slide !== this.hero?.slide) ?? alike[0];
    if (same) {
      const narrows = same.slide === this.hero?.slide && this.narrowsHero(c, substance(c.headline, language, this.f.nameWords));
      out.push({
        id: 'one-feature',
        field: 'headline',
        message: `"${c.headline}" shows slide ${same.slide}’s feature again`,
        ...(narrows ? { soft: true as const } : {}),
      });
    }
    return out;
  }

  /** The listing's series the headline names an item of (./series.ts), in the listing's own language. */
  private seriesOf(c: CaptionToCheck): number | null {
    return this.f.native && this.f.series.size > 0 ? seriesOfCaption(c.headline, this.f.series) : null;
  }

  private topic(c: CaptionToCheck): Set<string> {
    return substance(`${c.headline} ${c.subheadline ?? ''}`, this.f.language, this.f.nameWords);
  }

  /** Takes `c` as the set's next slide: later captions must not repeat it. */
  accept(c: CaptionToCheck): void {
    const slide = this.position(c);
    this.slides = Math.max(this.slides, slide);
    this.seen.push(...this.parts(c).map((t) => ({ key: t.key, topic: t.topic, slide, text: t.text })));
    if (!NOT_A_FEATURE.has(c.role)) this.features.push({ slide, topic: this.topic(c), series: this.seriesOf(c) });
    if (c.role === 'hero' && !this.hero) {
      const { language, nameWords, appNameWords, native, sentences, frameWords } = this.f;
      // The app's name says nothing a slide adds; its category's words may ("Turn-by-turn navigation").
      const quiet = new Set([...appNameWords, ...OPENERS]);
      const source = native ? sentenceCutFrom(c.headline, sentences, frameWords) : null;
      const words: HeroWords = {
        headline: substance(c.headline, language, quiet),
        whole: substance(`${c.headline} ${c.subheadline ?? ''}`, language, quiet),
        sentence: source ? substance(source.join(' '), language, quiet) : new Set(),
      };
      const sub = c.subheadline?.trim() ? textKey(c.subheadline) : null;
      this.hero = { slide, topic: substance(c.headline, language, nameWords), text: c.headline, words, sub };
    }
  }
}

/**
 * Refuses, on its characters alone, a caption too long for any set: twice the longest its field
 * holds (80 for a headline, 200 for a subheadline). A writer asks this first and has the checker
 * judge only what passes it: the tagger, fonts and patterns cost time per character (a 10 KB
 * caption of digits and commas took 2.7 s, and a model answer of such captions 55 s to judge).
 * Below that a caption is judged whole, so a slightly long one still hears everything else wrong
 * with it. Code points are counted, never more than the checker counts.
 */
export function tooLongToJudge(c: Pick<CaptionToCheck, 'headline' | 'subheadline'>, length: CaptionLength): Finding[] {
  const out: Finding[] = [];
  for (const field of ['headline', 'subheadline'] as const) {
    const text = c[field];
    const cap = 2 * Math.max(...Object.values(CAPTION_LENGTHS).map((l) => l[field]));
    if (!text || text.length <= cap) continue;
    const chars = [...text].length;
    if (chars <= cap) continue;
    const limit = CAPTION_LENGTHS[length][field];
    const quoted = `"${text.slice(0, 60)}…"`;
    if (limit === 0) out.push({ id: 'shape', field, message: `${quoted} is a subheadline; short captions have none` });
    else out.push({ id: 'fits', field, message: `${quoted} is ${chars} characters; ${length} ${field}s hold ${limit}` });
  }
  return out;
}

/**
 * THE entry point: the findings for each slide of a set, in order; a slide with none passes.
 * Repeats are judged against the earlier slides, so the later of two alike slides carries it.
 */
export function checkCaptions(captions: CaptionToCheck[], ctx: CheckContext): Finding[][] {
  const checker = new CaptionChecker(ctx);
  return captions.map((c, i) => {
    const at = { ...c, index: c.index ?? i + 1 };
    const findings = checker.check(at);
    checker.accept(at);
    return findings;
  });
}

/**
 * Findings a senior copywriter lets a slide ship with when the listing gives nothing better for it
 * (docs/captions.md, "Hard and soft rules"): the caption is whole, true and the slide's own, only
 * weaker than it should be. A little generic, or standing in a weak role (value-first), on any slide
 * but the first; a busy headline (a `one-feature` marked `soft`); a feature headline that names one
 * of the things the hero's line named (a `repeat` marked `soft`). A slide close to an earlier slide's
 * feature is hard: it says the same thing twice.
 * The planner delivers such a caption only when no candidate passes, and names the weakness in the
 * set's warnings. Every other finding is hard and never ships: a cut or unfinished phrase, a broken
 * frame, an echo or repeat, off-role lines, a contradicted rating, an invented claim, policy,
 * language, style, tone, shape and fit.
 */
export function softFinding(f: Finding, c: Pick<CaptionToCheck, 'role' | 'index'>): boolean {
  if (c.role === 'hero' || (c.index ?? 1) <= 1) return false;
  // A subheadline of the name or category alone is padding, never shipped: the slide stands on its headline.
  return (f.id === 'generic' && f.field === 'headline') || f.id === 'value-first' || f.soft === true;
}

/** A near miss: findings, and every one of them soft. */
export const nearMiss = (findings: Finding[], c: Pick<CaptionToCheck, 'role' | 'index'>): boolean =>
  findings.length > 0 && findings.every((f) => softFinding(f, c));

/** The findings as one line each, for logs, warnings and a repair prompt. */
export const describeFindings = (findings: Finding[]): string[] => findings.map((x) => `${x.id} (${x.field}): ${x.message}`);

// ---------------------------------------------------------------------------------------------
// Set level: what only a planned set shows. A caption cannot be judged on it, so the writers do not
// ask it; the corpus report and anything holding a finished set does.
// ---------------------------------------------------------------------------------------------

/** The screens findings of a planned set, per slide. */
function screensFindings(input: PlanInput, result: ScreenshotSetResult): Finding[][] {
  const device = DEVICES[result.device];
  const primary = primaryListing(input.listings, result.device);
  // A shot of the slides' orientation (landscape slides: a game's, a Mac's) fits them best; one of the
  // other orientation is shown (turned device) only once those run out, before any repeats.
  const wide = result.width > result.height;
  const fits = (s: { width?: number | null; height?: number | null }) => !(s.width && s.height) || s.width > s.height === wide;
  const family = input.listings.flatMap((l) => l.screenshots[device.family]);
  const usable = new Set(family.map((s) => s.url));
  const fitting = new Set(family.filter(fits).map((s) => s.url));
  const shots = new Map(input.listings.flatMap((l) => Object.values(l.screenshots).flat()).map((s) => [s.url, s]));
  const used = new Set(result.slides.map((s) => s.screenshotUrl));
  const unwarnedMac =
    primary.platform === 'mac' &&
    device.store === 'app-store' &&
    device.family !== 'mac' &&
    !result.warnings.some((w) => /\bMac\b/.test(w));
  return result.slides.map((s, i) => {
    const out: Finding[] = [];
    const add = (message: string) => out.push({ id: 'screens', field: 'screenshot', message });
    if (s.screenshotUrl) {
      const earlier = result.slides.slice(0, i).some((p) => p.screenshotUrl === s.screenshotUrl);
      if (earlier && [...usable].some((u) => !used.has(u))) add('the screenshot is framed again while others go unused');
      const shot = shots.get(s.screenshotUrl);
      if (shot && !fits(shot) && [...fitting].some((u) => !used.has(u)))
        add(`a ${wide ? 'portrait' : 'landscape'} screenshot on a ${wide ? 'landscape' : 'portrait'} slide while ones that fit go unused`);
    }
    if (unwarnedMac) add(`a Mac app planned for ${result.device} without a warning`);
    return out;
  });
}

/** A finished set's findings per slide: its captions' (checkCaptions) and its screens'. */
export function checkSet(input: PlanInput, result: ScreenshotSetResult, locale: string | null = null): Finding[][] {
  const captions = checkCaptions(result.slides, {
    listings: input.listings,
    extraContext: input.extraContext,
    device: result.device,
    captionLength: result.captionLength,
    captionStyle: result.captionStyle,
    locale,
  });
  const screens = screensFindings(input, result);
  return captions.map((f, i) => [...f, ...screens[i]]);
}
