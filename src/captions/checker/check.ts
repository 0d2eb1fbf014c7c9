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
import { nlp } from '../nlp.ts';
import { echoes, sameTopic, substance } from './complete.ts';
import { openerVocabulary } from '../rules/voices.ts';
import { type Role } from '../../core/narratives.ts';
import { pronounTail, sentenceCutFrom } from './cut.ts';
import { namesOnly } from './selling.ts';
import { fillerOnly, rescuesFiller } from './filler.ts';
import { MIN_PROOF_RATING, MIN_RATINGS, ratingTwice } from './proof.ts';
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
import { seriesOfCaption } from './series.ts';
import { contentWords, normalise, textKey, words as textWords } from '../text.ts';
import { CAPTION_LENGTHS, type PlanInput, type ScreenshotSetResult } from '../../core/set.ts';
import { factsOf, memo, type Facts } from './facts.ts';
import { textFindings } from './text-findings.ts';
import { screensFindings } from './screens.ts';
import type { CaptionToCheck, CheckContext, Finding } from './findings.ts';

export {
  describeFindings,
  FINDINGS,
  nearMiss,
  softFinding,
  tooLongToJudge,
  type CaptionToCheck,
  type CheckContext,
  type Finding,
  type FindingId,
} from './findings.ts';

const ASIDE_ROLES = new Set<Role>(['social-proof', 'call-to-action']);
const FEATURE_SLIDES = new Set<Role>(['feature', 'benefit', 'solution']);
/** Slides that are not about one feature: the one-feature check leaves them be. */
const NOT_A_FEATURE = new Set<Role>(['social-proof', 'call-to-action', 'problem']);
/** Two topics (a slide's content words) this alike are one feature shown twice. */
const SAME_FEATURE = 0.6;
/** The slides that must carry the value proposition: what a store visitor sees without scrolling. */
const VALUE_SLIDES = 3;
/** The voices' feature openers ("Go ahead,", "Now you can"): no part of what a slide says. */
const OPENERS = openerVocabulary();

/** Whether `text` says the words of `name` and no others ("Receitas da Vovó." of "Receitas da Vovó"). */
const sameWords = (text: string, name: string) => {
  const own = new Set(textWords(normalise(name, { fold: true })));
  return textWords(normalise(text, { fold: true })).every((w) => own.has(w));
};

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

/** A count of things ("500 levels", "20.000 recetas", "10K+ songs") is how the reader tells them apart. */
const COUNT = /\d[\d.,\s]*(?:k|m)?\+?\s+[\p{L}-]{3,}/giu;
/** Whether `text` counts something `other` does not ("Discover 20,000 recipes" against "Recipe box"). */
function countsMore(text: string, other: string): boolean {
  const counts = (t: string) => new Set([...t.matchAll(COUNT)].map((m) => m[0].toLowerCase().replace(/[^\p{N}]/gu, '')));
  const theirs = counts(other);
  return [...counts(text)].some((n) => !theirs.has(n));
}

/** The first word, past a voice's opener ("Go ahead,", "Now you can"), is a verb: the caption names an action. */
function opensOnAction(text: string): boolean {
  const bare = text.replace(/^(go ahead|now you can|yes)[,!]?\s+/i, '').toLowerCase();
  const first = (nlp(bare).json() as { terms: { tags: string[] }[] }[])[0]?.terms[0]?.tags ?? [];
  return first.includes('Verb') && !first.includes('Gerund');
}

/** "Cut videos and add stickers": a line of two to four parts, one of them an action. */
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
      const tail = f.language === 'en' ? pronounTail(sub) : null;
      if (tail) out.push({ id: 'cut', field: 'subheadline', message: tail });
    }
    for (const t of this.parts(c)) {
      // One shared word repeats a slide only when neither says much more ("Track habits" / "Track
      // habits daily"), not when it is one word of a line about something else ("One tap, one habit"
      // / "Widgets make a check-in one tap away").
      const alike = (a: Set<string>, b: Set<string>) => sameTopic(a, b) && (Math.min(a.size, b.size) > 1 || Math.max(a.size, b.size) <= 2);
      // A count the other line does not give is a thing of its own ("Browse 20,000 recipes" after
      // "Your recipes, organised"): the topic keeps no numbers, the reader does.
      const twins = this.seen.filter((s) => s.key === t.key || (f.native && alike(s.topic, t.topic) && !countsMore(t.text, s.text)));
      // Another slide's twin is named first: only the hero's alone may be a narrowing.
      const twin = twins.find((s) => s.slide !== this.hero?.slide) ?? twins[0];
      if (!twin) continue;
      // A feature headline naming one of the things the hero's line named ("Cut videos" after "Cut
      // videos and add stickers") narrows it rather than saying it again: soft (`softFinding`).
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
      // A count of things is this app's too ("Over 20,000 recipes"), though the topic keeps no numbers.
      const said =
        substance(c.headline, f.language, f.nameWords).size > 0 ||
        (f.ownLines.has(textKey(c.headline)) && !nameOnly) ||
        countsMore(c.headline, '');
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
    // "Complete solutions", "Fun for everyone": words any app says of itself. Hard on every
    // slide: a set refused, and told why, is better than filler (issue 33). The headline is judged
    // alone, and a subheadline rescues it only when it says what (`rescuesFiller`: "Get more done /
    // With two-finger gestures"), never with "For teachers and pupils" (second recordings read, M).
    if (f.native && f.language === 'en' && c.headline.trim() && !ASIDE_ROLES.has(c.role)) {
      const own = substance(c.headline, f.language, OPENERS);
      if (fillerOnly(own) && !(sub && rescuesFiller(sub, substance(sub, f.language, OPENERS))))
        out.push({
          id: 'generic',
          field: 'headline',
          message: `"${c.headline}" says only what any app says of itself (${[...own].join(', ')})`,
          soft: false,
        });
    }
    out.push(...this.oneFeature(c));
    // A feature slide that says the hero again, in its words or as the rest of its sentence (hard);
    // one of the things a hero listing actions named stays the soft narrowing the repeat above calls it.
    const hero = this.hero;
    if (f.native && hero && FEATURE_SLIDES.has(c.role) && this.position(c) !== hero.slide && c.headline.trim()) {
      const mine = substance(`${c.headline} ${sub ?? ''}`, f.language, new Set([...f.appNameWords, ...OPENERS]));
      const again = restatesHero(mine, hero.words);
      // A part of the hero's headline on its own slide may be the soft narrowing; a run of its
      // subheadline ("see every plant's progress" of "…and see every plant's progress on one simple graph") never.
      const bare = textKey(c.headline).split(' ');
      while (bare.length > 1 && OPENERS.has(bare[0])) bare.shift();
      const ofSub = hero.sub !== null && ` ${hero.sub} `.includes(` ${bare.join(' ')} `);
      const narrows = !ofSub && this.narrowsHero(c, substance(c.headline, f.language, new Set([...f.nameWords, ...OPENERS])));
      // In other forms of the hero's words only ("See every plant's progress" / "…plants thrive"): soft, a last resort.
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
    // Under 4.0 the store's rating reads as a warning (generic, M): soft from the second slide on, the
    // planner's warned last resort; hard as the opening slide, which would lead with it.
    const store = f.storeFigures.rating;
    if (c.role === 'social-proof' && store !== null && store > 0 && store < MIN_PROOF_RATING)
      out.push({
        id: 'generic',
        field: 'headline',
        message: `"${c.headline}" shows the store's rating of ${store.toFixed(1)}, under ${MIN_PROOF_RATING.toFixed(1)}: weak proof`,
        soft: true,
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
