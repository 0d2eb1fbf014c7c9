/**
 * The rule writer's state and its ways of saying a phrase: what a listing gives it to say, what the
 * set has spent, and every template × form of a phrase that fits and reads whole. The subheadlines
 * (./subheadlines.ts) and the slides by role (./writer.ts) build on it.
 */
import { incompleteness, sameTopic, substance } from '../checker/complete.ts';
import { type Phrase, type Understanding } from '../understand.ts';
import { applyCase, CASED_WORD, contentWords, textKey, UNSPACED } from '../text.ts';
import { dangles, endWords } from '../end-words.ts';
import { CAPTION_LENGTHS, type CaptionLength, type CaptionStyle } from '../../core/set.ts';
import { foreignFrames, openerVocabulary, SLOT, VOICES, voiceVocabulary, type Voice } from './voices.ts';
import { fillerOnly, rescuesFiller } from '../checker/filler.ts';
import { exclaimedLabel } from '../checker/exclaim.ts';
import { CUT_LANGUAGES } from '../checker/cut-languages.ts';
import { cutPhrase, leansOnPronoun, pronounTail } from '../checker/cut.ts';
import { brokenFrame } from '../checker/frames.ts';
import { offRole } from '../checker/selling.ts';
import { stockAction } from '../checker/echo-pair.ts';
import { seriesOf } from '../checker/series.ts';
import { localePunctuation } from '../checker/typography.ts';
import { doneForm, laterParts } from './sentence-parts.ts';

/** The voices' openers ("Go ahead,"): no word a line says of its own. */
const OPENERS = openerVocabulary();

export interface Caption {
  headline: string;
  subheadline: string | null;
  keywords: string[];
  /**
   * A near miss (checker/check.ts, `softFinding`): what the checker found weak in it, in its own
   * words. The planner ships it only where no candidate passes, and says so in the set's warnings.
   */
  weak?: string[];
  /** A near miss that says the hero again with a stock verb: the planner's last resort (planning/plan.ts). */
  restates?: true;
  /** A near miss that says only what another line's action is for (`purposeOf`): no feature of its own. */
  aside?: true;
  /** A near miss that says the hero again: one of its line's halves, its slogan's rest, or `restates`. */
  again?: true;
  /**
   * The listing's phrase the caption says, whole, when it says one: what its slide is about even
   * where the caption says it shorter ("Get reminders" for "Get reminders before bills are due"),
   * so the planner can put it over the screen that shows it.
   */
  phrase?: string;
}

/** "A metronome", "An audio editor": an indefinite article and a noun of one or two words. */
const BARE_ARTICLE = /^(a|an)\s+[\p{L}'’-]+(?:\s+[\p{L}'’-]+)?$/iu;

/** A phrase that only names a thing with its article ("A metronome" of "…and a metronome are included"). */
export const bareThing = (p: Phrase): boolean => BARE_ARTICLE.test(p.text);

const verdicts = new WeakMap<Understanding, Map<string, unknown>>();

export class WriterBase {
  protected readonly voice: Voice;
  protected readonly frames: Pick<
    Voice,
    'hero' | 'feature' | 'step' | 'problem' | 'socialProof' | 'socialProofLong' | 'socialProofLongSub' | 'callToAction'
  >;
  protected readonly dangling: Set<string>;
  protected readonly max: number;
  protected readonly subMax: number;
  protected readonly vars: Record<string, string>;
  protected readonly ordered: Phrase[];
  /** Phrases that are a later part of a line another phrase opens: said after every whole line. */
  protected readonly parts: Set<Phrase>;
  protected readonly nameWords: Set<string>;
  /** The voice's words and the app's name: what may frame the listing's words (checker/cut.ts). */
  protected readonly frameWords: Set<string>;
  protected readonly appNameWords: Set<string>;
  protected readonly usedHeads = new Set<string>();
  protected readonly usedPhrases = new Set<Phrase>();
  protected readonly usedSubs = new Set<string>();
  /** The listing's series (checker/series.ts) by sentence, and those a slide has said an item of: one list, one slide. */
  protected readonly series: Map<string, number>;
  protected readonly usedSeries = new Set<number>();
  protected readonly headTopics: Set<string>[] = [];
  protected step = 0;
  /** The hero headline's topic (one of `headTopics`): a feature may narrow it to one of its parts. */
  protected heroTopic: Set<string> | null = null;
  protected heroText = '';
  /** The words of the listing's line the hero's headline says (the form said), when it says one. */
  protected heroLine: string | null = null;
  /**
   * A slide with nothing else left may name one of the things the hero's line named (a soft repeat);
   * 'stock' last, one whose only word of its own is a stock verb ("Download offline maps" under
   * "Offline trail maps": checker/echo-pair.ts, `stockAction`), the planner's last resort.
   */
  protected narrowing: false | 'own' | 'stock' = false;
  /** How to give back what each caption spent (`release`). */
  protected readonly spent = new WeakMap<Caption, () => void>();
  /** A slide quoted the store's rating: the call to action need not. */
  protected proofSaid = false;
  /**
   * Whether `sayings` may say a line without the voice's closing mark where no form of it fits with
   * the mark (off while a slide looks for a line that fits with it); before a shorter form that drops
   * the line's point it always may.
   */
  protected bareMarks = true;

  constructor(
    protected readonly u: Understanding,
    style: CaptionStyle,
    length: CaptionLength,
    /** A set with no step slides may show the listing's steps as features ("Set a budget for each category"). */
    stepsAsFeatures = false,
    /** 'hero': a long set's other feature slides stand on their headlines (the planner adds subheadlines back where they pass). */
    protected readonly subheadlines: 'all' | 'hero' = 'all',
    /**
     * The phrases the set's screens show (planning/screen-match.ts, `shownPhrases`): said first, so
     * that a feature slide speaks of a screen the set frames, not of the listing's next feature.
     * Empty (no screen read): the voice's own order, as before.
     */
    protected readonly shown: ReadonlySet<Phrase> = new Set(),
  ) {
    this.voice = VOICES[style];
    const foreign = foreignFrames(u.language);
    this.frames = u.english ? this.voice : foreign.frames;
    this.dangling = endWords(u.language, { withEnglish: true });
    this.max = CAPTION_LENGTHS[length].headline;
    this.subMax = CAPTION_LENGTHS[length].subheadline;
    this.vars = {
      name: u.shortName,
      rating: u.english ? (u.rating?.value ?? '') : foreign.rating(u.rating?.value ?? ''),
      count: u.english ? (u.rating?.count ?? '') : foreign.count(u.rating?.count ?? ''),
      plus: u.english ? (u.rating?.count ?? '') : foreign.plus(u.rating?.count ?? ''),
    };
    const ordered = [
      ...(this.voice.order === 'score' ? [...u.phrases].sort((a, b) => b.score - a.score) : u.phrases),
      // A step that leans on the one before ("Share it as a PDF") says nothing on its own slide.
      ...(stepsAsFeatures ? u.steps.filter((p) => !/\b(it|them|they|this)\b/i.test(p.text)) : []),
    ];
    this.parts = laterParts(ordered);
    const part = (p: Phrase) => this.parts.has(p);
    // A purpose ("Compare prices nearby" of "Scan barcodes in store to…") after every part: it is why
    // its action matters, not a feature of its own (./writer.ts says it over its action).
    // A bare thing ("A metronome") with them: it names no more than a category.
    const last = (p: Phrase) => !!p.purposeOf || bareThing(p);
    const wholeFirst = (ps: Phrase[]) => [
      ...ps.filter((p) => !part(p) && !last(p)),
      ...ps.filter((p) => part(p) && !last(p)),
      ...ps.filter(last),
    ];
    // What the screens show first, each part in the voice's order.
    this.ordered = [...wholeFirst(ordered.filter((p) => shown.has(p))), ...wholeFirst(ordered.filter((p) => !shown.has(p)))];
    this.series = seriesOf([...u.phrases, ...u.steps].map((p) => p.sentence));
    this.nameWords = new Set([...contentWords(`${u.name} ${u.category}`, u.language)]);
    this.appNameWords = new Set(contentWords(u.name, u.language));
    this.frameWords = new Set([...voiceVocabulary(style), ...(u.name.toLowerCase().match(/[\p{L}\p{N}]+(?:['’.][\p{L}\p{N}]+)*/gu) ?? [])]);
  }

  /** What the writer has spent so far, to go back to (`restore`) when later ideas are not used. */
  snapshot(): () => void {
    const heads = new Set(this.usedHeads);
    const phrases = new Set(this.usedPhrases);
    const subs = new Set(this.usedSubs);
    const series = new Set(this.usedSeries);
    const topics = this.headTopics.length;
    const { step, proofSaid, heroTopic, heroText, heroLine } = this;
    return () => {
      this.usedHeads.clear();
      heads.forEach((h) => this.usedHeads.add(h));
      this.usedPhrases.clear();
      phrases.forEach((p) => this.usedPhrases.add(p));
      this.usedSubs.clear();
      subs.forEach((x) => this.usedSubs.add(x));
      this.usedSeries.clear();
      series.forEach((x) => this.usedSeries.add(x));
      this.headTopics.length = topics;
      Object.assign(this, { step, proofSaid, heroTopic, heroText, heroLine });
    };
  }

  /**
   * The checker's whole-phrase rules asked first (checker/cut.ts, frames.ts, selling.ts), so that a
   * form or frame they refuse is passed over for the next one instead of spending the slide's idea.
   */
  protected whole(text: string, field: 'headline' | 'subheadline', headline?: string): boolean {
    if (offRole(text)) return false;
    if (!this.u.english)
      return (
        !CUT_LANGUAGES.has(this.u.language) ||
        this.memo(
          `cut\0${field}\0${headline ?? ''}\0${text}`,
          () => cutPhrase(text, this.u.sentences, this.frameWords, headline, this.u.language, this.appNameWords) === null,
        )
      );
    return this.memo(
      `cut\0${field}\0${headline ?? ''}\0${text}`,
      () =>
        cutPhrase(text, this.u.sentences, this.frameWords, headline, 'en', this.appNameWords) === null &&
        brokenFrame(text, this.appNameWords) === null &&
        (field === 'subheadline' ? pronounTail(text) === null : leansOnPronoun(text) === null),
    );
  }

  /**
   * The tagger's verdicts on this listing's texts, kept with its analysis: a set asks about the same
   * forms again and again, and so do the sets for its other devices, voices and retries.
   */
  protected memo<T>(key: string, compute: () => T): T {
    let memo = verdicts.get(this.u);
    if (!memo) verdicts.set(this.u, (memo = new Map()));
    if (memo.has(key)) return memo.get(key) as T;
    const value = compute();
    memo.set(key, value);
    return value;
  }

  protected incomplete(text: string): string | null {
    return this.memo(`whole\0${text}`, () => incompleteness(text, this.u.language, this.u.proper));
  }

  /** Brand spellings back (iCloud, EasyPlanner) after the voice's casing, except in capitals. */
  protected cased(text: string): string {
    const out = applyCase(text, this.voice.casing, this.u.language, this.u.proper);
    if (this.voice.casing === 'upper') return out;
    return out.replace(CASED_WORD, (w) => this.u.brands.get(w.toLowerCase()) ?? w);
  }

  /**
   * `template` with its slots filled, cased, and ended in the voice's mark where the template has no
   * ending of its own. `bare`: without that mark (`sayings`: a line the mark alone takes over the limit).
   */
  protected fill(template: string, part: string | null, index: number, whole: string | null = part, bare = false): string | null {
    let missing = false;
    const at = template.indexOf('{p}');
    // A phrase inside a sentence loses its capital, unless it opens with a name; after a step's number
    // ("2. ", "Step 2: ") it opens a sentence of its own and keeps it.
    const inner =
      part &&
      at > 0 &&
      !/\{n\}[.:] $/.test(template.slice(0, at)) &&
      !this.u.proper.has((part.split(' ')[0] ?? '').toLowerCase()) &&
      !/^\p{Lu}{2}/u.test(part)
        ? part.charAt(0).toLowerCase() + part.slice(1)
        : part;
    const filled = template.replace(SLOT, (_, k: string) => {
      const value =
        k === 'p'
          ? inner
          : k === 'done'
            ? part && whole && this.memo(`done\0${part}\0${whole}`, () => doneForm(part, whole))
            : k === 'n'
              ? String(index)
              : this.vars[k];
      if (!value) missing = true;
      return value ?? '';
    });
    if (missing) return null;
    const ends = /[.!?]$/.test(filled);
    const cased = this.cased(filled);
    // No "!" on a label with no verb ("Split view support in the app"): said as minimal says it.
    const label = !ends && this.voice.end === '!' && exclaimedLabel(`${cased}!`, this.u.language) !== null;
    // The voice's "!" in the listing's own marks: "¡Duerme mejor!", "Chaque jour !".
    return localePunctuation(cased + (ends || bare || label ? '' : ending(this.voice.end, filled)), this.u.language);
  }

  protected acceptable(text: string | null): text is string {
    if (!text || text.length > this.max || (!this.u.english && dangles(text, this.dangling)) || this.usedHeads.has(textKey(text)))
      return false;
    // Not a near-repeat of a headline already on the set ("Download maps" after "Offline maps").
    const mine = substance(text, this.u.language, this.nameWords);
    // A stock verb before the hero's words, the voice's frame aside ("Go ahead, download maps!" under
    // "Offline maps and turn-by-turn"), says the hero again: only as the last resort.
    const hero = this.heroTopic;
    const own = hero && substance(text, this.u.language, new Set([...this.nameWords, ...this.frameWords]));
    const restates =
      !!own && own.size > 0 && own.size < hero.size && [...own].every((w) => hero.has(w)) && stockAction(text, this.heroText);
    if (restates !== (this.narrowing === 'stock')) return false;
    const narrows = (t: Set<string>) =>
      t === hero && (restates || (this.narrowing === 'own' && mine.size > 0 && mine.size < t.size && [...mine].every((w) => t.has(w))));
    if (this.headTopics.some((t) => sameTopic(t, mine) && !narrows(t))) return false;
    return this.incomplete(text) === null && this.whole(text, 'headline');
  }

  /**
   * The forms to say `p` in, by preference. `alone`: nothing under the headline says the rest, so a
   * shorter form that drops what makes the feature concrete ("Export reports" of "Export reports to
   * CSV and PDF", "Queue episodes" of "…from every show in one Up Next list": a name, a figure or
   * every/each/all) comes after the whole phrase, and the longest of them first (fifth read, T).
   */
  protected forms(p: Phrase, preferCore: boolean, alone = false): string[] {
    const cores = [...p.cores].reverse();
    if (!preferCore) return [...new Set([p.text, ...p.cores])];
    const drops = (c: string) => this.dropsPoint(p, c, alone);
    return [...new Set([...cores.filter((c) => !drops(c)), p.text, ...p.cores.filter(drops)])];
  }

  /** Whether a shorter form of `p` drops what makes it concrete, with nothing under it to say that (`forms`). */
  protected dropsPoint(p: Phrase, form: string, alone: boolean): boolean {
    return alone && form !== p.text && namesPoint(restOf(form, p.text));
  }

  /** Every template × form that fits and reads whole, in the voice's order of preference, with the form it says. */
  protected *sayings(
    templates: string[],
    p: Phrase | null,
    index: number,
    preferCore: boolean,
    alone = false,
  ): Generator<{ text: string; form: string | null }> {
    // A line the voice's closing mark alone takes over the limit ("Pick a colour for every drawer!",
    // 31 for a short headline's 30) is said without the mark rather than lost (ninth read: playful
    // refused a story its calmer voices made of the same line). Only after every form and template
    // that fits with the mark: a shorter whole form in the voice's tone comes first ("Save on
    // weekly groceries." before the line with the app's name on), and a longer form that only the
    // missing mark let in is never preferred to it. The checker asks no voice for a mark.
    const over: { t: string; form: string | null }[] = [];
    const bare = function* (this: WriterBase, last: boolean): Generator<{ text: string; form: string | null }> {
      for (const { t, form } of !last || this.bareMarks ? over.splice(0) : []) {
        const text = this.fill(t, form, index, p?.text ?? null, true);
        if (text && text.length <= this.max && this.acceptable(text)) yield { text, form };
      }
    };
    for (const form of p ? this.forms(p, preferCore, alone) : [null]) {
      // Before a form that drops what makes the line concrete ("Pick a colour" of "Pick a colour for
      // every drawer"), the line itself without the mark: the mark is worth less than the point.
      if (p && form && this.dropsPoint(p, form, alone)) yield* bare.call(this, false);
      // "A DRAWING APP." of "A drawing app for kids": a thing named with its article and nothing it
      // does is a category, not a selling line (fifth read, M): the whole phrase says it. A phrase
      // that is only such a thing ("A metronome") is said last (`bareThing`), and warned.
      if (alone && form && p && form !== p.text && BARE_ARTICLE.test(form)) continue;
      // "You really need this app": filler is no headline, even where a line under it would
      // rescue it at the checker; that line says what, as a headline of its own (second recordings read, M).
      // Its own sentence's means may say what under it ("Get more done // With two-finger gestures").
      if (this.u.english && form && p && fillerOnly(substance(form, 'en', OPENERS)) && !this.meansAfter(form, p)) continue;
      for (const t of templates) {
        if (!p && t.includes('{p}')) continue;
        const text = this.fill(t, form, index, p?.text ?? null);
        const long = (text?.length ?? 0) > this.max;
        if (this.acceptable(text)) yield { text, form };
        else if (long) over.push({ t, form });
      }
    }
    yield* bare.call(this, true);
  }

  protected say(templates: string[], p: Phrase | null, index: number, preferCore: boolean): string | null {
    for (const out of this.sayings(templates, p, index, preferCore)) return out.text;
    return null;
  }

  /** Whether `p`'s sentence goes on after `form` with the means that says what it does ("… with two-finger gestures"). */
  private meansAfter(form: string, p: Phrase): boolean {
    const [head, whole] = [textKey(form), textKey(p.sentence)];
    if (!whole.startsWith(`${head} `)) return false;
    const rest = whole.slice(head.length + 1);
    return /^(?:with|by|using|via|through)\s/.test(rest) && rescuesFiller(rest, substance(rest, 'en', OPENERS));
  }

  /** Whether the phrase could headline a feature slide of its own (on a fresh writer: at all, in this voice and length). */
  sayable(p: Phrase): boolean {
    return this.say(this.frames.feature[p.shape], p, 0, this.voice.prefer === 'core') !== null;
  }

  /** Whether a slide said the line `p` is a later part of (a phrase that opens `p`'s sentence). */
  protected opened(p: Phrase): boolean {
    for (const q of this.usedPhrases) if (q !== p && !this.parts.has(q) && q.sentence === p.sentence) return true;
    return false;
  }

  /**
   * Whether `p` is one of the things a hero's line says ("Add stickers in a tap" of "Cut videos and
   * add stickers in a tap", "Climb to the summit" of "Jump, spin and climb to the summit"): on a slide of
   * its own it says a half of the hero again (sixth held-out read, D).
   */
  protected halfOf(line: string | null, text: string): boolean {
    // A form that is the whole line ("7-minute workouts" under a hero "7-Minute Workouts") is no half;
    // nor one that says more than the line ("7-minute workouts with a coach's voice" under "7-Minute
    // Workouts, No Equipment"): that adds a fact of its own.
    if (!line || textKey(text) === textKey(line)) return false;
    return ` ${textKey(line)} `.includes(` ${textKey(text)} `);
  }

  protected fresh(p: Phrase): boolean {
    // Whether it says another slide's idea again is the checker's one overlap measure (./check.ts), asked by the planner.
    if (this.usedPhrases.has(p)) return false;
    const series = this.series.get(p.sentence);
    return series === undefined || !this.usedSeries.has(series);
  }

  protected commit(headline: string, p: Phrase | null, sub: string | null, topic?: Set<string>): Caption {
    const undo: (() => void)[] = [];
    const add = <T>(set: Set<T>, v: T) => {
      if (set.has(v)) return;
      set.add(v);
      undo.push(() => set.delete(v));
    };
    add(this.usedHeads, textKey(headline));
    const topics = [topic ?? substance(headline, this.u.language, this.nameWords)];
    if (sub) {
      // `sub` marked it used when it chose it: the caption's own.
      this.usedSubs.add(textKey(sub));
      undo.push(() => this.usedSubs.delete(textKey(sub)));
      topics.push(substance(sub, this.u.language, this.nameWords));
    }
    this.headTopics.push(...topics);
    undo.push(() =>
      topics.forEach((t) => {
        const at = this.headTopics.indexOf(t);
        if (at >= 0) this.headTopics.splice(at, 1);
      }),
    );
    if (p) {
      add(this.usedPhrases, p);
      const series = this.series.get(p.sentence);
      if (series !== undefined) add(this.usedSeries, series);
    }
    const caption: Caption = {
      headline: localePunctuation(headline, this.u.language),
      subheadline: sub && localePunctuation(sub, this.u.language),
      keywords: slideKeywords(this.u, `${headline} ${sub ?? ''}`, this.voice.order === 'score' ? 5 : 3),
      ...(p ? { phrase: p.text } : {}),
    };
    this.spent.set(caption, () => undo.reverse().forEach((f) => f()));
    return caption;
  }

  /**
   * Gives back what a caption spent, when the planner passed it over for a later idea that passes
   * whole (a near miss): a later slide may still say it. Trying a near miss first used to spend its
   * phrase, and a set then ran out a slide short (third held-out read: receitas' short voices).
   */
  release(c: Caption): void {
    this.spent.get(c)?.();
    this.spent.delete(c);
  }
}

/** A slide's keywords: the listing's own nouns and adjectives in its caption, topped up with the app's. */
export function slideKeywords(u: Understanding, text: string, wanted: number): string[] {
  const own = contentWords(text, u.language).filter((w) => u.sourceWords.has(w) && (!u.keywordish || u.keywordish.has(w)));
  const ranked = [...new Set([...own.filter((w) => u.keywords.includes(w)), ...own])];
  for (const k of u.keywords) if (ranked.length < wanted && !ranked.includes(k)) ranked.push(k);
  return ranked.slice(0, wanted);
}

/** A voice's ending in the text's script: Japanese, Chinese and Thai captions take no full stop, and a full-width "！". */
export function ending(end: '' | '.' | '!', text: string): string {
  if (!UNSPACED.test(text)) return end;
  return end === '!' ? '！' : '';
}

/** What a phrase says after its shorter form `core`, when the form opens it ('' otherwise). */
function restOf(core: string, text: string): string {
  return text.toLowerCase().startsWith(core.toLowerCase()) ? text.slice(core.length) : '';
}

/** Whether a phrase's rest names what makes it concrete: a name or acronym, a figure, or every/each/all. */
export function namesPoint(rest: string): boolean {
  return /\d/.test(rest) || /\b(every|each|all|any|unlimited)\b/i.test(rest) || /(^|\s)\p{Lu}|\p{Ll}\p{Lu}/u.test(rest);
}
