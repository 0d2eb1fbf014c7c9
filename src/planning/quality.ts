/**
 * The copywriter's checks, as code. A senior copywriter reads a screenshot set slide by slide and
 * sends it back when any of these fail; `npm run plan:report` measures the planner against them on
 * the caption corpus (test/planning/corpus/), and docs/captions.md explains each one.
 *
 * - complete:    a headline is a finished thought: it has a verb or is a complete noun phrase, and
 *                does not end on a preposition, article, conjunction or possessive, nor on a
 *                dangling object ("… from thousands", "… to learn"); a subheadline is not a listing
 *                sentence cut short.
 * - distinct:    no headline or subheadline repeats or nearly repeats another one of the set
 *                (content-word overlap), which is also what "Meet X" / "X for <Category>" are.
 * - no-echo:     a subheadline adds to its headline: it does not open with the headline's words
 *                ("Export reports — Export reports to CSV and PDF").
 * - clean:       no URL or e-mail fragment, no markup, invisible characters or stray symbols, no
 *                shouting in capitals (except the bold voice), brand casing as the listing writes it.
 * - tone:        no complaint, pain question or negative sentence outside a problem slide.
 * - one-feature: a slide names one feature (no list of three), and a different one from the others.
 * - value-first: the first three slides carry the value proposition, not a name/category template.
 * - screens:     a store screenshot is not framed twice while others go unused, its orientation
 *                matches the device, and a listing for another platform is warned about.
 *
 * The writer (captions.ts) uses the same completeness and overlap predicates to refuse a caption,
 * so `complete` and much of `distinct` hold by construction on its main paths and catch only its
 * fallbacks; the other checks are independent of it.
 */
import nlp from 'compromise';
import type { Listing } from '../stores/listing.ts';
import { NEGATIVE_WORDS } from './clean.ts';
import { contentWords, danglingWords, looksParticiple, QUANTITY_WORDS, strandedPreposition, words } from './text.ts';
import { DEVICES, type PlanInput, type ScreenshotSetResult, type Slide } from './types.ts';

export const CHECKS = ['complete', 'distinct', 'no-echo', 'clean', 'tone', 'one-feature', 'value-first', 'screens'] as const;
export type Check = (typeof CHECKS)[number];

export interface SlideVerdict {
  index: number;
  failed: Partial<Record<Check, string>>;
}

const URLISH = /https?:|www\.|[\w-]+\.(com|net|org|io|app|co|de|fr|example)\b|\S+@\S+\.\w+|@\w{3,}/i;
const MARKUP = /<\/?[a-z][^>]*>|\*\*|__|&[a-z]+;|&#\d+;|[\u200B-\u200D\u2060\uFEFF\u00AD]/i;
// Symbols a caption should not carry: bullets, stars that are not a rating, arrows, checkmarks.
const STRAY = /[•·‣◦▪■□●○✓✔☑►▶→➤]|^\s*[-*]\s/u;
const ENDS_BADLY = new Set(['Preposition', 'Conjunction', 'Determiner', 'Possessive', 'Auxiliary', 'Modal', 'Copula', 'QuestionWord']);
const QUANTITY = new RegExp(`\\b(${QUANTITY_WORDS})$`, 'i');
const OPEN_INFINITIVE = /\bto (learn|discover|find|see|get|know|use|explore|make|do|try|have|keep|enjoy|start)$/i;

// Words no English caption ends on; the tagger judges the rest (a final "in" can be a particle: "built in").
const HARD_ENDS = new Set([
  'and',
  'or',
  'with',
  'of',
  'for',
  'to',
  'the',
  'a',
  'an',
  'your',
  'our',
  'my',
  'its',
  'their',
  'from',
  'into',
  'via',
  'per',
  'than',
  'that',
  'which',
  'who',
  'is',
  'are',
  'be',
  'can',
  'will',
  'such',
  'including',
  'plus',
  'every',
  'each',
  'this',
  'these',
  'those',
  'not',
  'no',
  'by',
  'at',
  'as',
  'but',
  'nor',
  'so',
  'his',
  'her',
]);
const normal = (t: string) =>
  t
    .normalize('NFKC')
    .replace(/[.!?…]+$/u, '')
    .trim();

/** Term tags for English text, parsed in sentence case so that Title Case does not read as names. */
function tagsOf(text: string, proper: Set<string>): { text: string; tags: string[] }[][] {
  if (text === text.toUpperCase()) text = text.toLowerCase();
  const lowered = text.replace(/\p{L}[\p{L}'’-]*/gu, (w) =>
    proper.has(w.toLowerCase()) || /\p{Ll}\p{Lu}/u.test(w) || (/^\p{Lu}{2,5}$/u.test(w) && w.length <= 4) ? w : w.toLowerCase(),
  );
  const json = nlp(lowered).json() as { terms: { text: string; tags: string[] }[] }[];
  return json.map((s) => s.terms.filter((t) => t.text !== '')).filter((s) => s.length > 0);
}

/** Why `text` is not a finished headline or subheadline, or null when it is. */
export function incompleteness(text: string, language: string, proper: Set<string> = new Set()): string | null {
  const t = normal(text);
  if (!t) return 'empty';
  if (/[…]|\.\.\.$/u.test(text.trim())) return 'ends in an ellipsis';
  if ((t.match(/[([“«]/g)?.length ?? 0) !== (t.match(/[)\]”»]/g)?.length ?? 0) || (t.match(/"/g)?.length ?? 0) % 2 === 1)
    return 'unbalanced brackets or quotes';
  if (/[,;:&+/–—-]$/u.test(t)) return 'ends on punctuation';
  const last = words(t).pop() ?? '';
  // "With the people you travel with": a relative clause may end on its preposition.
  const stranded = language === 'en' && strandedPreposition(t);
  if (!stranded && (language === 'en' ? HARD_ENDS : danglingWords(language)).has(last)) return `ends on "${last}"`;
  if (language !== 'en') return null;
  if (/^(and|or|but|so|because|which|that)\b/i.test(t)) return 'starts mid-sentence';
  if (QUANTITY.test(t) && /\b(from|of|among|with|over)\s+\S+$/i.test(t)) return 'dangling object ("from thousands")';
  if (OPEN_INFINITIVE.test(t)) return 'dangling object ("to learn")';
  if (/\b(the|a|an|\w+est) ways?$/i.test(t)) return 'dangling object ("the fastest way")';
  // "Pennywise turns your spending": a verb of change without what it changes into.
  if (/\b(turns?|transforms?|converts?)\b(?!.*\b(into|to)\b)/i.test(t)) return 'dangling object ("turns your spending")';
  const sentences = tagsOf(t, proper);
  if (sentences.length === 0) return null;
  const final = sentences[sentences.length - 1];
  const end = final[final.length - 1];
  if (
    end &&
    !stranded &&
    end.tags.some((g) => ENDS_BADLY.has(g)) &&
    !/^(it|you|them|me|us|in|on|up|out|off|down|over|away|back|together|more|now|today|tonight|anywhere|everywhere|again|instantly)$/i.test(
      end.text,
    )
  )
    return `ends on "${end.text}"`;
  // Every sentence of it stands alone: "Track habits. Now." has a fragment glued on.
  for (const [k, terms] of sentences.entries()) {
    // "Unlimited habits. Tracked.": a participle may close a noun phrase as its own sentence.
    if (k > 0 && terms.length === 1 && looksParticiple(terms[0].text)) continue;
    const hasVerb = terms.some((x) => x.tags.includes('Verb'));
    const hasNoun = terms.some((x) => x.tags.some((g) => /Noun|Value|Acronym|Date/.test(g)) && !x.tags.includes('Pronoun'));
    if (!hasVerb && !hasNoun) return `"${terms.map((x) => x.text).join(' ')}" is neither a verb nor a noun phrase`;
  }
  return null;
}

/** Whether `sub` opens with the headline's own words (its framing and punctuation aside). */
export function echoes(headline: string, sub: string): boolean {
  const bare = (t: string) =>
    normal(t)
      .toLowerCase()
      .replace(/^[^:]{1,40}:\s+/, '')
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const h = bare(headline);
  const n = h.split(' ').length;
  // It opens with them ("Smart reminders / Smart reminders that…"), or says a headline of three
  // words or more again inside ("Build good habits / Streakly helps you build good habits…").
  return (n >= 2 && `${bare(sub)} `.startsWith(`${h} `)) || (n >= 3 && ` ${bare(sub)} `.includes(` ${h} `));
}

const lineKey = (t: string) =>
  normal(t)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** A subheadline that is a listing sentence with its end cut off. */
function cutFromSource(sub: string, listing: Listing): boolean {
  const s = normal(sub).toLowerCase();
  if (s.split(' ').length < 4) return false;
  const source = `${listing.description}\n${listing.subtitle ?? ''}`.toLowerCase().replace(/[ \t]+/g, ' ');
  const at = source.indexOf(s);
  if (at < 0) return false;
  const rest = source.slice(at + s.length);
  return /^[ ,;:–—-]*[\p{L}\p{N}]/u.test(rest);
}

/** Content words that say something: not the app's name, its category, or stock framing words. */
export const STOCK = new Set([
  'app',
  'apps',
  'meet',
  'discover',
  'explore',
  'download',
  'today',
  'now',
  'get',
  'try',
  'closer',
  'look',
  'companion',
  'everything',
  'place',
  'one',
  'action',
  'everyday',
  'use',
  'made',
  'started',
  'start',
  'inside',
  'glance',
  'detail',
  'overview',
  'designed',
  'built',
  'thoughtfully',
  'clear',
  'focused',
  'ready',
  'simply',
  'just',
  'hello',
  'peek',
  'magic',
  'fans',
  'vibes',
  'five',
  'high',
  'shiny',
  'rated',
  'stars',
  'ratings',
  'users',
  'loved',
  'trusted',
  'average',
  'rating',
  'new',
  'your',
  'learn',
  'take',
  'see',
  'level',
  'stand',
  'move',
  'fast',
  'own',
  'pure',
  'further',
  'more',
  'every',
  'each',
  'all',
  'any',
]);

export function substance(text: string, language: string, exclude: Set<string>): Set<string> {
  const stem = (w: string) => (language === 'en' ? w.replace(/(ies|es|s|ing|ed)$/, '') : w);
  return new Set(
    contentWords(text, language)
      .filter((w) => !exclude.has(w) && !STOCK.has(w))
      .map(stem),
  );
}

export function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return a.size === b.size ? 1 : 0;
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / Math.min(a.size, b.size);
}

/** "Track habits, set goals and view charts": three coordinated actions are three features. */
function listsSeveral(text: string, english: boolean): boolean {
  const parts = normal(text)
    .split(/,\s*|\s+(?:and|or|&)\s+/i)
    .filter(Boolean);
  if (parts.length < 3) return false;
  if (!english) return parts.every((p) => p.split(' ').length >= 2);
  // An action is a verb with its own object: "Go ahead, build and upgrade a fortress" and "Adjust
  // light, colour and detail" each do one thing.
  const actions = parts.filter((p) => {
    const terms = (nlp(p.toLowerCase()).json() as { terms: { tags: string[] }[] }[])[0]?.terms ?? [];
    return terms[0]?.tags.includes('Verb') && terms.slice(1).some((t) => t.tags.includes('Noun') && !t.tags.includes('Pronoun'));
  }).length;
  return actions >= 2;
}

export function judgeSet(input: PlanInput, result: ScreenshotSetResult): SlideVerdict[] {
  const device = DEVICES[result.device];
  const primary = input.listings.find((l) => l.store === device.store) ?? input.listings[0];
  const language = (primary.language || 'en').slice(0, 2).toLowerCase();
  const english = language === 'en';
  const proper = new Set<string>();
  const brands = new Map<string, string>();
  for (const l of input.listings) {
    for (const w of `${l.name} ${l.description} ${l.subtitle ?? ''} ${input.extraContext ?? ''}`.match(/[\p{L}][\p{L}\p{N}'’]*/gu) ?? []) {
      if (/^\p{Lu}\p{Ll}/u.test(w)) proper.add(w.toLowerCase());
      // Inner capitals make a brand spelling (iCloud, EasyPlanner, TaskForge): the set keeps it.
      if (/\p{Ll}\p{Lu}/u.test(w)) brands.set(w.toLowerCase(), w);
    }
  }
  const nameWords = new Set([...contentWords(`${primary.name}`, language), ...contentWords(primary.category, language)]);
  const bold = result.captionStyle === 'bold';
  const texts = result.slides.map((s) => [s.headline, s.subheadline ?? ''].filter(Boolean));
  // The developer's own subtitle or line of description is never a template, even when its words
  // are the name's ("Every trip in one place" for Wayfarer Trip Planner).
  const ownLines = new Set(
    input.listings
      .flatMap((l) => [l.subtitle ?? '', ...l.description.split(/\n|(?<=[.!?])\s+/)])
      .map(lineKey)
      .filter(Boolean),
  );
  const templateOnly = (k: number) =>
    substance(result.slides[k].headline, language, nameWords).size === 0 && !ownLines.has(lineKey(result.slides[k].headline));
  const topics = result.slides.map((s) => substance(`${s.headline} ${s.subheadline ?? ''}`, language, nameWords));
  // Landscape shots cannot fill a portrait slide, so leaving them unused is right.
  const shotUrls = new Set(
    input.listings.flatMap((l) =>
      l.screenshots[device.family].filter((s) => !(s.width && s.height && s.width > s.height)).map((s) => s.url),
    ),
  );
  const shotSize = new Map(input.listings.flatMap((l) => Object.values(l.screenshots).flat()).map((s) => [s.url, s]));
  const otherPlatform = primary.platform === 'mac' && device.store === 'app-store';
  const warnedPlatform = result.warnings.some((w) => /\bMac\b/.test(w));

  return result.slides.map((s: Slide, i): SlideVerdict => {
    const failed: SlideVerdict['failed'] = {};
    const fail = (c: Check, why: string) => (failed[c] ??= why);
    const own = texts[i];

    const hl = incompleteness(s.headline, language, proper);
    if (hl) fail('complete', `headline ${hl}`);
    if (s.subheadline) {
      const sl = incompleteness(s.subheadline, language, proper);
      if (sl) fail('complete', `subheadline ${sl}`);
      else if (cutFromSource(s.subheadline, primary)) fail('complete', 'subheadline is a listing sentence cut short');
      if (echoes(s.headline, s.subheadline)) fail('no-echo', `"${s.subheadline}" opens with its headline's words`);
    }

    for (let j = 0; j < i; j++) {
      for (const a of own)
        for (const b of texts[j]) {
          const x = substance(a, language, nameWords);
          const y = substance(b, language, nameWords);
          if (a.toLowerCase() === b.toLowerCase() || (overlap(x, y) >= 0.8 && Math.min(x.size, y.size) >= 1))
            fail('distinct', `"${a}" repeats slide ${j + 1}'s "${b}"`);
        }
      // "Meet X", "The <Category> App", "X for <Category>": the name and category rearranged say one thing.
      const aside = (k: number) => ['call-to-action', 'social-proof'].includes(result.slides[k].role);
      if (templateOnly(i) && templateOnly(j) && !aside(i) && !aside(j))
        fail('distinct', `"${s.headline}" and slide ${j + 1}'s "${result.slides[j].headline}" only rearrange the name and category`);
    }

    for (const t of own) {
      if (URLISH.test(t)) fail('clean', `URL or e-mail in "${t}"`);
      if (MARKUP.test(t)) fail('clean', `markup or invisible characters in "${t}"`);
      if (STRAY.test(t)) fail('clean', `stray symbol in "${t}"`);
      if (!bold && /\p{Lu}{2,}(\s+\p{Lu}{2,}){2,}/u.test(t)) fail('clean', `capitals in "${t}"`);
      if (!bold)
        for (const w of t.match(/[\p{L}][\p{L}\p{N}'’]*/gu) ?? []) {
          const brand = brands.get(w.toLowerCase());
          if (brand && w !== brand) fail('clean', `"${w}" should be spelt "${brand}"`);
        }
      if (s.role !== 'problem' && (NEGATIVE_WORDS.test(t) || (english && /\?\s*$/.test(t))))
        fail('tone', `negative outside a problem slide: "${t}"`);
    }

    if (!['social-proof', 'call-to-action', 'problem'].includes(s.role)) {
      // The hero sums the app up ("Learn, play and analyse chess"); every other slide shows one thing.
      if (s.role !== 'hero' && listsSeveral(s.headline, english)) fail('one-feature', `several features in "${s.headline}"`);
      for (let j = 0; j < i; j++) {
        if (['social-proof', 'call-to-action', 'problem'].includes(result.slides[j].role)) continue;
        if (topics[i].size > 0 && overlap(topics[i], topics[j]) >= 0.6 && Math.min(topics[i].size, topics[j].size) >= 2)
          fail('one-feature', `same feature as slide ${j + 1}`);
      }
    }

    if (i < 3 && !['social-proof', 'problem'].includes(s.role)) {
      if (templateOnly(i)) fail('value-first', `"${s.headline}" carries no value proposition`);
    }

    if (s.screenshotUrl) {
      const earlier = result.slides.slice(0, i).some((p) => p.screenshotUrl === s.screenshotUrl);
      const used = new Set(result.slides.map((p) => p.screenshotUrl));
      if (earlier && [...shotUrls].some((u) => !used.has(u))) fail('screens', 'screenshot repeated while others are unused');
      const size = shotSize.get(s.screenshotUrl);
      if (size?.width && size.height && size.width > size.height) fail('screens', 'landscape screenshot in a portrait slide');
    }
    if (otherPlatform && !warnedPlatform) fail('screens', 'a Mac app planned for an iOS device without a warning');
    return { index: s.index, failed };
  });
}
