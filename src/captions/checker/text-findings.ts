/**
 * The findings on one line of a caption, its headline or its subheadline, read alone: fit, whole
 * phrases, policy, language, style, tone, off-role lines, ratings, cuts, frames and claims. What
 * reads a line against its pair or the set's other slides is ./check.ts.
 */
import { hasMarkup, NEGATIVE } from '../clean.ts';
import { cutFromSource, hasStraySymbol, incompleteness, URLISH } from './complete.ts';
import { ungroundedClaims } from './claims.ts';
import { fitOf } from './fit.ts';
import { captionWidth } from '../../core/locales.ts';
import { languageFinding } from './language.ts';
import { CUT_LANGUAGES } from './cut-languages.ts';
import { cutPhrase, leansOnPronoun } from './cut.ts';
import { brokenFrame } from './frames.ts';
import { countingRating, exclaimedLabel, painGoneAsked } from './exclaim.ts';
import { askOf, offRole } from './selling.ts';
import { contradictedProof } from './proof.ts';
import { punctuationFault } from './typography.ts';
import { primaryListing } from '../../core/listing.ts';
import { CASED_WORD, mentionsFree, normalise, words as textWords } from '../text.ts';
import { dangles, endWords } from '../end-words.ts';
import { CAPTION_LENGTHS, type CaptionStyle } from '../../core/set.ts';
import { memo, type Facts } from './facts.ts';
import type { CaptionToCheck, CheckContext, Finding, FindingId } from './findings.ts';

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
/**
 * About the app: the question names it by a run of its name's words, small words too ("Love My
 * Day?", "Enjoying To Do?": code review, the name's content words alone missed both), holding one
 * of its content words or its whole name before any tagline; or it says "the app", "this app".
 */
function asksAboutTheApp(text: string, appName: Set<string>, name: string, shortName: string): boolean {
  const m = LIKES_APP.exec(text.trim());
  if (!m) return false;
  const named = textWords(normalise(m[1], { fold: true }));
  const own = named.filter((w) => !/^(the|this|our|app)$/.test(w));
  if (own.length === 0) return named.includes('app');
  const all = textWords(normalise(name, { fold: true }));
  const run = all.some((_, i) => own.every((w, k) => all[i + k] === w));
  const brand = textWords(normalise(shortName, { fold: true }));
  return run && (own.some((w) => appName.has(w)) || own.join(' ') === brand.join(' '));
}
/** Voices that never exclaim (rules/voices.ts: no "!" in their frames or ends). */
const CALM_VOICES = new Set<CaptionStyle>(['minimal', 'professional']);
/** The proof and the ask have frames of their own: a rating or an app's name is no label. */
const ASIDES = new Set(['social-proof', 'call-to-action']);
/** Invisible, bidi control and Unicode tag characters: text a reader cannot see but a store can. */
const HIDDEN = /[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\u{E0000}-\u{E007F}]/u;
/** A word mixing Latin letters with Cyrillic or Greek ones: a look-alike ("Аpp" with a Cyrillic A). */
const MIXED_SCRIPT = /(?=[\p{L}\p{N}]*\p{Script=Latin})(?=[\p{L}\p{N}]*[\p{Script=Cyrillic}\p{Script=Greek}])[\p{L}\p{N}]+/u;
/** A writer that ran out of room ends on these rather than on a finished word. */
const LOOKS_CUT = /(\.\.\.|…|\s-)$/u;
/** Pronouns that need a noun said before them: a headline opening on one has none. */
const REFERRING = new Set(['it', "it's", 'it’s', 'its', 'they', "they're", 'they’re', 'them', 'their', 'he', 'she']);
/** Three words or more in capitals in a row: shouting, which only the bold voice may do. */
const SHOUTING = /\p{Lu}{2,}(\s+\p{Lu}{2,}){2,}/u;
const RELIEVED = /\b(?:without|no|sans|ohne|sin|senza|sem)\s+(?:the\s+|any\s+|le\s+|de\s+)?(?:stress\w*|hassle|headaches?|worr\w+)/giu;

/** The findings on `text`, caption `c`'s `field`, read as a line of its own. */
export function textFindings(text: string, field: 'headline' | 'subheadline', c: CaptionToCheck, ctx: CheckContext, f: Facts): Finding[] {
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
  else if (asksAboutTheApp(text, f.appNameWords, f.u.name, f.u.shortName))
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
  const off = offRole(text) ?? (c.role === 'call-to-action' ? null : askOf(text));
  if (off) add('off-role', `"${text}" is ${off}, not a selling point`);
  const contradicted = contradictedProof(text, f.storeFigures);
  if (contradicted) add('rating', `"${text}" ${contradicted}`);
  // French, Spanish, Portuguese and Italian captions are cut as English ones are ("Le mode" of "Le mode pas à pas").
  const cut =
    f.native && (f.language === 'en' || CUT_LANGUAGES.has(f.language))
      ? memo(`cut\0${f.language}\0${ctx.captionStyle}\0${f.sourceKey}\0${field === 'subheadline' ? c.headline : ''}\0${text}`, () =>
          cutPhrase(
            text,
            f.sentences,
            f.frameWords,
            field === 'subheadline' ? c.headline : undefined,
            f.language,
            f.appNameWords,
            textWords(normalise(f.u.shortName, { fold: true })),
          ),
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
    const counting = countingRating(text);
    if (counting) add('frame', `"${text}": ${counting}`);
  }
  // The playful voice's marks where the phrase's shape does not take them (./exclaim.ts).
  if (f.native && c.role === 'problem' && field === 'headline') {
    const gone = painGoneAsked(text);
    if (gone) add('frame', `"${text}" ${gone}`);
  }
  if (f.native && field === 'headline' && !ASIDES.has(c.role)) {
    const label = memo(`label\0${f.language}\0${text}`, () => exclaimedLabel(text, f.language));
    if (label) add('frame', label);
  }
  // "… sections *": a footnote mark or a banner's stars left at the end of a line.
  if (/\s\*+[\s.!]*$/u.test(text)) add('style', `"${text}" ends on a run of "*"`);
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
