/**
 * What the checker knows of a set before it reads a caption: the listing read once (its name, its
 * sentences, its claims, its brands, the store's figures), and the memo of its slow verdicts.
 */
import { createHash } from 'node:crypto';
import type { CheckContext } from './findings.ts';
import { notAFeature } from '../clean.ts';
import { claimSources, type ClaimSources } from './claims.ts';
import { foreignFrames, foreignVocabulary, voiceVocabulary } from '../rules/voices.ts';
import { languageOf } from '../../core/locales.ts';
import { sentenceWords, type Sentence } from './sentences.ts';
import { seriesOf } from './series.ts';
import { primaryListing } from '../../core/listing.ts';
import { CASED_WORD, contentWords, textKey, words as textWords } from '../text.ts';
import { DEVICES } from '../../core/devices.ts';
import { memoPerUnderstanding, understand, type Understanding } from '../understand.ts';
import type { Listing } from '../../core/listing.ts';

export interface Facts {
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

/**
 * Facts already read: a plan builds a checker for every set it writes (a refusal writes one per
 * smaller count), each reading the listing again (6 % of the planning tests' CPU). They depend on
 * the understanding and the rest of the context that keys them; nothing changes a Facts once made.
 * At most 200 contexts (devices × voices × locales × screens) per understanding.
 */
const knownFacts = memoPerUnderstanding<Facts>(200);

export function factsOf(ctx: CheckContext): Facts {
  const primary = primaryListing(ctx.listings, ctx.device);
  const u = understand(ctx.listings, primary, ctx.extraContext);
  const key = JSON.stringify([
    ctx.device,
    ctx.captionStyle,
    ctx.locale ?? null,
    ctx.extraContext,
    ctx.screenText ?? null,
    ctx.listings.length,
  ]);
  return knownFacts(u, key, () => readFacts(ctx, primary, u));
}

function readFacts(ctx: CheckContext, primary: Listing, u: Understanding): Facts {
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
export function memo<T>(key: string, compute: () => T): T {
  if (verdicts.has(key)) return verdicts.get(key) as T;
  const value = compute();
  if (verdicts.size >= 20_000) verdicts.delete(verdicts.keys().next().value as string);
  verdicts.set(key, value);
  return value;
}
