/**
 * Writes one caption per slide from the listing's phrases, each slide about its own idea. Phrases
 * are used whole or in a shorter whole form, never cut to fit; a slide with no fresh idea left is
 * not written (the planner then drops it and says so).
 */
import { taggedSentences, type TaggedTerm } from '../nlp.ts';
import { echoes, incompleteness, sameTopic, substance } from '../checker/complete.ts';
import { type Phrase, type Understanding } from '../understand.ts';
import {
  applyCase,
  capitalise,
  CASED_WORD,
  contentWords,
  dangles,
  END_PUNCT,
  endWords,
  normalise,
  opensStandalone,
  participleOf,
  SPACES,
  textKey,
  UNSPACED,
} from '../text.ts';
import { CAPTION_LENGTHS, type CaptionLength, type CaptionStyle } from '../../core/set.ts';
import type { Role } from '../../core/narratives.ts';
import { foreignFrames, SLOT, VOICES, voiceVocabulary, type Voice } from './voices.ts';
import { CUT_LANGUAGES, cutPhrase, leansOnPronoun } from '../checker/cut.ts';
import { brokenFrame } from '../checker/frames.ts';
import { namesOnly, offRole } from '../checker/selling.ts';
import { heroSaysAgain, saysAgain, seamEcho, stockAction } from '../checker/echo-pair.ts';
import { seriesOf } from '../checker/series.ts';
import { localePunctuation } from '../checker/typography.ts';

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
  /**
   * The listing's phrase the caption says, whole, when it says one: what its slide is about even
   * where the caption says it shorter ("Get reminders" for "Get reminders before bills are due"),
   * so the planner can put it over the screen that shows it.
   */
  phrase?: string;
}

const verdicts = new WeakMap<Understanding, Map<string, unknown>>();

export class CaptionWriter {
  private readonly voice: Voice;
  private readonly frames: Pick<
    Voice,
    'hero' | 'feature' | 'step' | 'problem' | 'socialProof' | 'socialProofLong' | 'socialProofLongSub' | 'callToAction'
  >;
  private readonly dangling: Set<string>;
  private readonly max: number;
  private readonly subMax: number;
  private readonly vars: Record<string, string>;
  private readonly ordered: Phrase[];
  /** Phrases that are a later part of a line another phrase opens: said after every whole line. */
  private readonly parts: Set<Phrase>;
  private readonly nameWords: Set<string>;
  /** The voice's words and the app's name: what may frame the listing's words (checker/cut.ts). */
  private readonly frameWords: Set<string>;
  private readonly appNameWords: Set<string>;
  private readonly usedHeads = new Set<string>();
  private readonly usedPhrases = new Set<Phrase>();
  private readonly usedSubs = new Set<string>();
  /** The listing's series (checker/series.ts) by sentence, and those a slide has said an item of: one list, one slide. */
  private readonly series: Map<string, number>;
  private readonly usedSeries = new Set<number>();
  private readonly headTopics: Set<string>[] = [];
  private step = 0;
  /** The hero headline's topic (one of `headTopics`): a feature may narrow it to one of its parts. */
  private heroTopic: Set<string> | null = null;
  private heroText = '';
  /**
   * A slide with nothing else left may name one of the things the hero's line named (a soft repeat);
   * 'stock' last, one whose only word of its own is a stock verb ("Download offline maps" under
   * "Offline trail maps": checker/echo-pair.ts, `stockAction`), the planner's last resort.
   */
  private narrowing: false | 'own' | 'stock' = false;
  /** How to give back what each caption spent (`release`). */
  private readonly spent = new WeakMap<Caption, () => void>();
  /** A slide quoted the store's rating: the call to action need not. */
  private proofSaid = false;

  constructor(
    private readonly u: Understanding,
    style: CaptionStyle,
    length: CaptionLength,
    /** A set with no step slides may show the listing's steps as features ("Set a budget for each category"). */
    stepsAsFeatures = false,
    /** 'hero': a long set's other feature slides stand on their headlines (the planner adds subheadlines back where they pass). */
    private readonly subheadlines: 'all' | 'hero' = 'all',
    /**
     * The phrases the set's screens show (planning/screen-match.ts, `shownPhrases`): said first, so
     * that a feature slide speaks of a screen the set frames, not of the listing's next feature.
     * Empty (no screen read): the voice's own order, as before.
     */
    private readonly shown: ReadonlySet<Phrase> = new Set(),
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
    const wholeFirst = (ps: Phrase[]) => [...ps.filter((p) => !part(p)), ...ps.filter(part)];
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
    const { step, proofSaid, heroTopic, heroText } = this;
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
      Object.assign(this, { step, proofSaid, heroTopic, heroText });
    };
  }

  /**
   * The checker's whole-phrase rules asked first (checker/cut.ts, frames.ts, selling.ts), so that a
   * form or frame they refuse is passed over for the next one instead of spending the slide's idea.
   */
  private whole(text: string, field: 'headline' | 'subheadline', headline?: string): boolean {
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
        (field === 'subheadline' || leansOnPronoun(text) === null),
    );
  }

  /**
   * The tagger's verdicts on this listing's texts, kept with its analysis: a set asks about the same
   * forms again and again, and so do the sets for its other devices, voices and retries.
   */
  private memo<T>(key: string, compute: () => T): T {
    let memo = verdicts.get(this.u);
    if (!memo) verdicts.set(this.u, (memo = new Map()));
    if (memo.has(key)) return memo.get(key) as T;
    const value = compute();
    memo.set(key, value);
    return value;
  }

  private incomplete(text: string): string | null {
    return this.memo(`whole\0${text}`, () => incompleteness(text, this.u.language, this.u.proper));
  }

  /** Brand spellings back (iCloud, EasyPlanner) after the voice's casing, except in capitals. */
  private cased(text: string): string {
    const out = applyCase(text, this.voice.casing, this.u.language, this.u.proper);
    if (this.voice.casing === 'upper') return out;
    return out.replace(CASED_WORD, (w) => this.u.brands.get(w.toLowerCase()) ?? w);
  }

  private fill(template: string, part: string | null, index: number, whole: string | null = part): string | null {
    let missing = false;
    const at = template.indexOf('{p}');
    // A phrase inside a sentence loses its capital, unless it opens with a name.
    const inner =
      part && at > 0 && !this.u.proper.has((part.split(' ')[0] ?? '').toLowerCase()) && !/^\p{Lu}{2}/u.test(part)
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
    // The voice's "!" in the listing's own marks: "¡Duerme mejor!", "Chaque jour !".
    return localePunctuation(this.cased(filled) + (ends ? '' : ending(this.voice.end, filled)), this.u.language);
  }

  private acceptable(text: string | null): text is string {
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

  private forms(p: Phrase, preferCore: boolean): string[] {
    const cores = [...p.cores].reverse();
    return [...new Set(preferCore ? [...cores, p.text] : [p.text, ...p.cores])];
  }

  /** Every template × form that fits and reads whole, in the voice's order of preference, with the form it says. */
  private *sayings(
    templates: string[],
    p: Phrase | null,
    index: number,
    preferCore: boolean,
  ): Generator<{ text: string; form: string | null }> {
    for (const form of p ? this.forms(p, preferCore) : [null]) {
      for (const t of templates) {
        if (!p && t.includes('{p}')) continue;
        const text = this.fill(t, form, index, p?.text ?? null);
        if (this.acceptable(text)) yield { text, form };
      }
    }
  }

  private say(templates: string[], p: Phrase | null, index: number, preferCore: boolean): string | null {
    for (const out of this.sayings(templates, p, index, preferCore)) return out.text;
    return null;
  }

  /** Whether the phrase could headline a feature slide of its own (on a fresh writer: at all, in this voice and length). */
  sayable(p: Phrase): boolean {
    return this.say(this.frames.feature[p.shape], p, 0, this.voice.prefer === 'core') !== null;
  }

  private fresh(p: Phrase): boolean {
    // Whether it says another slide's idea again is the checker's one overlap measure (./check.ts), asked by the planner.
    if (this.usedPhrases.has(p)) return false;
    const series = this.series.get(p.sentence);
    return series === undefined || !this.usedSeries.has(series);
  }

  private commit(headline: string, p: Phrase | null, sub: string | null, topic?: Set<string>): Caption {
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

  private frameIdea(role: Role, index: number, pool: Phrase[]): Caption | null {
    // First a phrase whose subheadline adds to its headline; only when none has one, a
    // subheadline that repeats the headline's words: a slide said twice beats no slide. Only when
    // no fresh phrase has any subheadline at all, a long slide keeps its headline alone
    // (subheadline null; the planner warns which slides): one slide without a subheadline beats a
    // set refused.
    const each = (ideas: Phrase[], echo: boolean): Caption | null => {
      if (this.subMax <= 0) return this.frameIdeaWith(role, index, ideas, 'short');
      if (this.subheadlines === 'hero') return this.frameIdeaWith(role, index, ideas, 'headline-only');
      return (
        this.frameIdeaWith(role, index, ideas, 'adds') ??
        (echo ? this.frameIdeaWith(role, index, ideas, 'echo') : null) ??
        this.frameIdeaWith(role, index, ideas, 'headline-only')
      );
    };
    // A feature a screen shows, even on its headline alone, before one no screen shows with a
    // subheadline: a caption over a screen of something else is the worse slide (issue 33). Its
    // screen speaks for it, so it never says its headline twice to fill the subheadline.
    const shown = pool.filter((p) => this.shown.has(p));
    const once = (): Caption | null =>
      shown.length > 0
        ? (each(shown, false) ??
          each(
            pool.filter((p) => !this.shown.has(p)),
            true,
          ))
        : each(pool, true);
    const said = once();
    if (said || !this.heroTopic || role === 'how-it-works') return said;
    // Nothing fresh left: one of the things the hero named, on a slide of its own ("Trim clips"
    // after "Trim clips and add music"); the checker calls it a soft repeat, the planner warns.
    try {
      this.narrowing = 'own';
      const own = once();
      if (own) return own;
      this.narrowing = 'stock';
      return once();
    } finally {
      this.narrowing = false;
    }
  }

  private frameIdeaWith(role: Role, index: number, pool: Phrase[], mode: 'short' | 'adds' | 'echo' | 'headline-only'): Caption | null {
    const long = mode === 'adds' || mode === 'echo';
    const allowEcho = mode === 'echo';
    for (const p of pool) {
      if (!this.fresh(p)) continue;
      // A feature said whole in the headline leaves its subheadline nothing to add: say it short.
      // Cut at a word list, a phrase in another language may lose its meaning ("Le mode"): whole first.
      const preferCore =
        this.u.english && (this.voice.prefer === 'core' || (long && p.cores.length > 0 && textKey(p.sentence) === textKey(p.text)));
      const frames = role === 'how-it-works' ? this.frames.step : this.frames.feature[p.shape];
      const rotated = frames.map((_, i) => frames[(i + index) % frames.length]);
      // A step's number is taken only by the step that is written: steps stay 1, 2, 3.
      const n = role === 'how-it-works' ? this.step + 1 : index;
      // The first headline with something whole to say under it: "Save your looks as presets —
      // Apply them to a whole album at once" when "Save your looks" leaves only "As presets and…".
      for (const { text: headline, form } of this.sayings(rotated, p, n, preferCore)) {
        const sub = long ? this.sub(headline, p, { form, allowEcho }) : null;
        // A long caption with nothing whole to say under it waits for the headline-only pass: never filler.
        if (long && sub === null) continue;
        if (role === 'how-it-works') this.step = n;
        return this.commit(headline, p, sub);
      }
    }
    return null;
  }

  /**
   * A caption for the slide, or null when the listing has no fresh idea left for it. `featuresAfter`
   * counts the slides after this one that each need a feature of their own: the hero may spend a
   * spare feature's sentence under its headline only when that leaves enough for them.
   */
  caption(role: Role, index: number, featuresAfter = 0): Caption | null {
    const u = this.u;
    const long = this.subMax > 0;
    if (role === 'hero' || (role === 'solution' && u.promise && !this.usedPhrases.has(u.promise))) {
      // The promise when it can be said in a headline, else the first feature that can; on a long
      // slide, the first of them with a line to say under it. The app's name or category is no
      // such line ("Social Networking."): with none, the hero keeps its first headline, sub null,
      // and the checker refuses it, so the planner asks again rather than ship padding.
      let p: Phrase | null = null;
      let said: { text: string; form: string | null } | null = null;
      let sub: string | null = null;
      let bare: { q: Phrase; s: { text: string; form: string | null } } | null = null;
      // The promise, then a whole part of its sentence ("Capture ideas" of "…is the fastest way to
      // capture ideas on iPhone and iPad"), then the features in the voice's order.
      const promised = (x: Phrase) => !!u.promise && textKey(x.sentence) === textKey(u.promise.sentence);
      const fresh = this.ordered.filter((x) => this.fresh(x));
      for (const q of [
        ...(u.promise && !this.usedPhrases.has(u.promise) ? [u.promise] : []),
        ...fresh.filter(promised),
        ...fresh.filter((x) => !promised(x)),
      ]) {
        const s = this.sayings(this.frames.hero, q, index, this.voice.prefer === 'core').next().value;
        if (!s) continue;
        // A form of the app's name or category words alone ("Mais de 5.000 receitas" of "Receitas da
        // Vovó") the checker refuses on the hero (generic), and trying it spends a feature a later
        // slide may say: the voices in the listing's order lost whole sets so (third held-out read).
        if (substance(s.text, u.language, this.nameWords).size === 0 && textKey(s.text) !== textKey(q.sentence)) {
          bare ??= { q, s };
          continue;
        }
        if (!said) [p, said] = [q, s];
        if (!long) break;
        const spare = this.ordered.filter((x) => this.fresh(x) && x !== q).length > featuresAfter;
        const under =
          this.sub(s.text, q, { form: s.form, extra: u.subtitle, spare: spare ? 'any' : 'unsayable', hero: role === 'hero' }) ??
          this.sub(s.text, q, { form: s.form, spare: 'any', hero: role === 'hero' });
        if (under) {
          [p, said, sub] = [q, s, under];
          break;
        }
      }
      if (!said && bare) [p, said] = [bare.q, bare.s];
      const headline = said?.text ?? this.say(['{name}'], null, index, false);
      if (!headline) return null;
      this.heroTopic = substance(headline, u.language, this.nameWords);
      this.heroText = headline;
      if (long && !said) sub = this.sub(headline, null, { extra: u.subtitle, spare: 'any', hero: role === 'hero' });
      return this.commit(headline, p, sub, this.heroTopic);
    }
    if (role === 'social-proof') {
      // Long: the rating in the headline, how many rated under it, each figure said once.
      const headline = this.say(long ? this.frames.socialProofLong : this.frames.socialProof, null, index, false);
      if (!headline || !u.rating) return null;
      const proof = this.frames.socialProofLongSub.replace(SLOT, (_, k: string) => this.vars[k] ?? '');
      // A language whose words for ratings the writer does not know: the rating stands alone, no count as stars.
      const sub = long && proof.trim() ? (this.finishSub(proof) ?? proof) : null;
      this.proofSaid = true;
      return this.commit(headline, null, sub);
    }
    if (role === 'call-to-action') {
      const headline = this.say(this.frames.callToAction, null, index, false);
      if (!headline) return null;
      if (!long) return this.commit(headline, null, null);
      // Under the ask, one more reason, never a second ask ("Start today with {name}" under "Get
      // started with {name}" says it twice): the store's rating when no slide quoted it, a line about
      // the app not yet said, a feature no slide showed; else the headline stands alone.
      // In English only: elsewhere the voice has no sentence for it, and "56K+ — 4.7/5 ★" under
      // the ask is symbols, not a reason (read 2026-11-28).
      const rating =
        u.rating && !this.proofSaid && u.english
          ? this.finishSub(this.voice.socialProofSub.replace(SLOT, (_, k: string) => this.vars[k] ?? ''))
          : null;
      const own = this.voice.callToActionSub ? this.fill(this.voice.callToActionSub, null, index) : null;
      const sub =
        rating ??
        (own && !echoes(headline, own) ? this.finishSub(own) : null) ??
        this.sub(headline, null, { extra: u.subtitle, spare: 'any' });
      return this.commit(headline, null, sub ?? null);
    }
    if (role === 'problem') {
      const p = u.problems.find((x) => !this.usedPhrases.has(x));
      if (!p) return null;
      const question = localePunctuation(`${p.text}?`, u.language);
      const direct = this.acceptable(question) ? question : null;
      const headline = direct ?? (long ? this.say(this.frames.problem, null, index, false) : null);
      if (!headline) return null;
      this.usedPhrases.add(p);
      // Under a question that is the listing's own sentence, the sentence again would say it twice.
      const own = long ? this.finishSub(direct ? p.sentence : question) : null;
      const sub = own && echoes(headline, own) ? (this.sub(headline, null) ?? own) : own;
      return this.commit(headline, null, long ? sub : null);
    }
    if (role === 'how-it-works') return this.frameIdea(role, index, u.steps);
    // A benefit is said as one where the listing has it (not an order), but a screen's feature before either.
    const rank = (p: Phrase) => (this.parts.has(p) ? 4 : 0) + (this.shown.has(p) ? 0 : 2) + (p.shape === 'imperative' ? 1 : 0);
    const pool = role === 'benefit' ? [...this.ordered].sort((a, b) => rank(a) - rank(b)) : this.ordered;
    return this.frameIdea(role, index, pool);
  }

  private finishSub(text: string, headline?: string): string | null {
    const t = text.replace(SPACES, ' ').trim();
    let body = t.replace(END_PUNCT, '');
    // The listing's "!" only in a voice that exclaims: the minimal and professional voices say it
    // as they say every line, with their own end or none.
    const keep = /\?$/.test(t) || (this.voice.end === '!' && /!$/.test(t));
    const end = keep ? t.slice(-1) : ending(this.voice.subEnd, t);
    // A Spanish exclamation said without its "!" loses its "¡" too.
    if (!keep && /!$/.test(t)) body = body.replace(/¡(?=[^¡]*$)/u, '');
    const out = localePunctuation(
      capitalise(this.voice.casing === 'upper' ? body : body.replace(CASED_WORD, (w) => this.u.brands.get(w.toLowerCase()) ?? w)) + end,
      this.u.language,
    );
    if (
      out.length > this.subMax ||
      (this.u.english ? this.incomplete(out) !== null : dangles(out, this.dangling)) ||
      this.usedSubs.has(textKey(out)) ||
      // "With Forkful.", "Social Networking.": the name or category alone is padding, not a subheadline.
      namesOnly(out, this.u.language, this.nameWords) ||
      !this.whole(out, 'subheadline', headline)
    )
      return null;
    return out;
  }

  /**
   * What the subheadline says under the headline: the phrase's own sentence when it adds to the
   * headline; when that sentence only opens with the headline's words ("Smart reminders that adapt
   * to your schedule"), the rest of it said on its own ("Adapt to your schedule"); else a line about
   * the app as a whole (its subtitle or promise). Never another feature's sentence: a slide shows one
   * feature. Null when nothing fits: the slide is not written.
   */
  private sub(
    headline: string,
    p: Phrase | null,
    o: { form?: string | null; extra?: string | null; spare?: 'any' | 'unsayable'; allowEcho?: boolean; hero?: boolean } = {},
  ): string | null {
    const candidates: string[] = [];
    if (p) {
      for (const own of [p.sentence, p.text]) {
        const form = o.form ?? headline;
        const rest = this.memo(`rest\0${form}\0${own}\0${p.shape}`, () => remainder(form, own, this.u.language, p.shape !== 'noun'));
        candidates.push(rest ?? own);
      }
    }
    // The app's promise under a feature, unless another slide already says it.
    const promiseFree = !this.u.promise || this.u.promise === p || !this.usedPhrases.has(this.u.promise);
    if (o.extra) candidates.push(o.extra);
    if (this.u.subtitle && promiseFree) candidates.push(this.u.subtitle);
    if (this.u.promise && this.u.promise !== p && promiseFree) candidates.push(this.u.promise.sentence);
    // The hero sums the whole app up: an unused sentence about it may stand under it, prose first;
    // when the slides after it need every feature, only one too long to be a headline of its own.
    if (o.spare) {
      // A screen's feature is kept for the slide over that screen: the hero spends the others first.
      const spare = [...this.ordered.filter((q) => !this.shown.has(q)), ...this.ordered.filter((q) => this.shown.has(q))].filter(
        (q) => this.fresh(q) && q !== p && (o.spare === 'any' || !this.sayable(q)),
      );
      // A line no slide could headline, then one about the app as a whole ("TaskForge is a to-do
      // list and planner…"), before a feature a later slide may need: "Collect digital coupons"
      // under the hero left Cartwheel's sets a slide short once the voice's order put it first
      // (the later-parts fix, tuned refusals 504 -> 520).
      const prose = (q: Phrase) => q.kind === 'sentence' || q.kind === 'action';
      const name = new Set(contentWords(this.u.shortName, this.u.language));
      const rank = (q: Phrase) =>
        (o.spare === 'any' && this.sayable(q) ? 4 : 0) +
        (name.has(contentWords(q.sentence, this.u.language)[0] ?? '') ? 0 : 2) +
        (prose(q) ? 0 : 1);
      for (const q of spare.map((q) => ({ q, r: rank(q) })).sort((a, b) => a.r - b.r)) candidates.push(q.q.sentence);
    }
    // Last, when allowed, the phrase's own sentence even though it repeats the headline's words.
    const echoing = p && o.allowEcho ? [p.sentence, p.text] : [];
    for (const [k, text] of [...candidates, ...echoing].entries()) {
      if (textKey(text) === textKey(headline)) continue;
      const out = this.finishSub(text, headline);
      // "Track unlimited habits with Streakly. / With a single tap.": two "with"s in a row read as a stutter.
      const framedBy = /\b(with|for|in|on|to)\b[^,.!?]*[.!?]?$/i.exec(headline)?.[1]?.toLowerCase();
      if (framedBy && out && out.split(SPACES)[0].toLowerCase() === framedBy) continue;
      // Echo judged on the phrase as said too: "Go ahead, save your looks!" is echoed by "Save your looks as…".
      if (
        !out ||
        textKey(headline).includes(textKey(out)) ||
        (k < candidates.length && (echoes(headline, out) || (o.form && echoes(o.form, out))))
      )
        continue;
      // Never the headline's own words in other forms, even where an echo is allowed: "REPORTS.
      // EXPORTED." over "Export reports to CSV and PDF" says one thing twice (the checker's echo).
      // Not under the hero or the ask (`spare`), which sum the app up and may name it the same way.
      if (!o.spare && saysAgain(headline, out, this.u.language, new Set([...this.nameWords, ...this.frameWords]))) continue;
      // Under the hero, not its headline's noun phrase again ("Receitas caseiras… / …reúne as receitas caseiras…").
      if (o.hero && heroSaysAgain(headline, out, this.u.language, this.appNameWords)) continue;
      // Nor on the word the headline closes on ("DRIFT, BOOST AND RACE. / Race through…"), hero or not.
      if (seamEcho(headline, out, this.u.language, this.nameWords)) continue;
      // Nor what another slide already says: a sentence spent as a headline is not a subheadline too.
      const said = substance(out, this.u.language, this.nameWords);
      if (this.usedHeads.has(textKey(out)) || this.headTopics.some((t) => sameTopic(said, t))) continue;
      this.usedSubs.add(textKey(out));
      // A feature's sentence said under the hero or the ask is said: no later slide says it again
      // (receitas: "// Mais de 5.000 receitas com fotos" under the hero, then "Mais de 5.000 receitas").
      if (o.spare) for (const q of this.ordered) if (q !== p && textKey(q.sentence) === textKey(text)) this.usedPhrases.add(q);
      return out;
    }
    return null;
  }
}

// Verbs whose sense needs what follows the object: "Bring your imagination | to life".
const LIGHT_VERBS = new Set([
  'bring',
  'make',
  'turn',
  'put',
  'get',
  'take',
  'keep',
  'let',
  'give',
  'set',
  'go',
  'do',
  'have',
  'see',
  'find',
  'help',
]);

/**
 * "Track unlimited habits" → "Unlimited habits. Tracked.": an imperative said as its result, the
 * bold voice's way of stating a feature. Only for a verb and a short object of its own (no
 * preposition, list or article, which would not read as a headline of their own), and only when
 * what the phrase says after it is an aside ("with a single tap", "to CSV", "and share them"), not
 * its sense ("as presets", or "to life" after a light verb like "bring"); null otherwise.
 */
export function doneForm(phrase: string, whole: string = phrase): string | null {
  const tokens = phrase.trim().split(SPACES);
  const after = whole.startsWith(phrase) ? whole.slice(phrase.length).trim() : null;
  if (after === null || (after !== '' && !opensStandalone(after, 'en') && !/^(to|and)\s/i.test(after))) return null;
  if (LIGHT_VERBS.has(tokens[0]?.toLowerCase() ?? '')) return null;
  if (tokens.length < 2 || tokens.length > 5 || /[,;:]/.test(phrase)) return null;
  const terms = taggedSentences(phrase.toLowerCase())[0]?.terms ?? [];
  if (
    terms.length !== tokens.length ||
    !terms[0].tags.includes('Verb') ||
    !terms[0].tags.some((g) => g === 'Infinitive' || g === 'Imperative')
  )
    return null;
  const object = terms.slice(1);
  // "your looks" and "booking emails" are objects; "them", "a photo" and "to friends" are not headlines.
  const unfit = (t: TaggedTerm, last: boolean) =>
    t.tags.some((g) => g === 'Preposition' || g === 'Conjunction') ||
    (t.tags.includes('Pronoun') && !t.tags.includes('Possessive')) ||
    (t.tags.includes('Verb') && (last || !t.tags.includes('Gerund'))) ||
    /^(a|an|the|to)$/.test(t.text);
  if (object.some((t, i) => unfit(t, i === object.length - 1)) || !isNounEnd(object[object.length - 1].tags)) return null;
  const participle = participleOf(terms[0].text);
  if (!participle) return null;
  const said = tokens.slice(1).join(' ');
  return `${capitalise(said)}. ${capitalise(participle)}`;
}

const isNounEnd = (tags: readonly string[]) => tags.some((g) => /Noun|Acronym/.test(g)) && !tags.includes('Pronoun');

/**
 * "Smart reminders" + "Smart reminders that adapt to your schedule" -> "adapt to your schedule":
 * the sentence after the headline's words, when it can stand alone (a verb phrase, a clause with
 * its own subject, or a prepositional phrase); null otherwise.
 */
function remainder(headline: string, sentence: string, language: string, action = false): string | null {
  const said = { fold: true, label: true };
  const head = normalise(headline, said).toLowerCase().split(SPACES);
  const words = normalise(sentence, said).split(SPACES);
  if (head.length < 2 || words.length <= head.length) return null;
  const strip = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (!head.every((w, i) => strip(w) === strip(words[i]))) return null;
  const rest = words
    .slice(head.length)
    .join(' ')
    .replace(/^[,;:–—-]\s*/, '')
    .replace(/^(that|which|who|and)\s+/i, '');
  if (rest.split(SPACES).length < 2) return null;
  if (language !== 'en') return opensStandalone(rest, language) ? rest : null;
  const terms = taggedSentences(rest.toLowerCase())[0]?.terms ?? [];
  // "Scan barcodes in store" + "to compare prices nearby": the purpose said as an action. Not after a
  // noun: "40 cars // Unlock and tune" asks unlock and tune what? (checker/cut.ts, third held-out read).
  if (/^to\b/i.test(rest) && terms[1]?.tags.includes('Infinitive'))
    return (taggedSentences(headline.toLowerCase())[0]?.terms ?? []).some((t) => t.tags.includes('Verb'))
      ? rest.replace(/^to\s+/i, '')
      : null;
  // After an action, where it goes or how is an aside that stands alone ("Export reports — To CSV
  // and PDF", "Free up storage — By finding large files"); after a noun it only finishes it ("Offline
  // access — To every document"), and "as" never stands alone ("As presets and apply them…").
  const aside =
    action &&
    /^(to|into|by)\b/i.test(rest) &&
    !terms.slice(1).some((t, i) => t.tags.includes('Verb') && !(i === 0 && t.tags.includes('Gerund')));
  if (aside) return rest;
  if (/^(to|as|into|by|of)\b/i.test(rest)) return null;
  // "Read by soothing voices help your mind…" under "Sleep stories": the participle's agent and then
  // the sentence's own verb, whose subject stayed in the headline. Not a line of its own.
  if (/^\S+\s+by\b/i.test(rest) && terms.slice(3).some((t) => t.tags.includes('Verb') && !t.tags.includes('Gerund'))) return null;
  // A verb phrase ("adapt to your schedule"), a clause ("Wayfarer builds your itinerary") or a
  // prepositional phrase ("with a single tap") stands on its own; a bare noun tail does not.
  const verbAt = terms.findIndex((t) => t.tags.includes('Verb'));
  const subject = terms.slice(0, verbAt).some((t) => t.tags.some((g) => /Noun|Pronoun/.test(g)));
  const verbal = verbAt === 0 || (verbAt > 0 && verbAt <= 3 && subject);
  // "For each goal and watch it fill up" glues a second action onto the aside: not a line of its own.
  const secondAction =
    /\b(and|or)\s+\S+/i.test(rest) &&
    terms.some((t, i) => i > 0 && t.tags.includes('Verb') && /^(and|or)$/i.test(rest.toLowerCase().split(SPACES)[i - 1] ?? ''));
  return verbal || (opensStandalone(rest, 'en') && !secondAction) ? rest : null;
}

/**
 * The phrases that are a later part of a line another phrase opens ("Interactive lessons" of "Learn
 * openings with interactive lessons"): a last resort, since a whole line still unused says more and
 * the part spreads one line over two slides (docs/captions.md, "One line, one slide"). Not a part: a
 * phrase that opens its own line (it is that line, said whole or in a shorter whole form), nor one
 * that only drops a bare first verb ("Reminders before bills are due" of "Get reminders…").
 */
export function laterParts(phrases: readonly Phrase[]): Set<Phrase> {
  const opens = (p: Phrase) => textKey(p.sentence).startsWith(textKey(p.text));
  const opened = new Set(phrases.filter(opens).map((p) => textKey(p.sentence)));
  return new Set(
    phrases.filter(
      (p) => !opens(p) && opened.has(textKey(p.sentence)) && !textKey(p.sentence).split(' ').slice(1).join(' ').startsWith(textKey(p.text)),
    ),
  );
}

/** A slide's keywords: the listing's own nouns and adjectives in its caption, topped up with the app's. */
export function slideKeywords(u: Understanding, text: string, wanted: number): string[] {
  const own = contentWords(text, u.language).filter((w) => u.sourceWords.has(w) && (!u.keywordish || u.keywordish.has(w)));
  const ranked = [...new Set([...own.filter((w) => u.keywords.includes(w)), ...own])];
  for (const k of u.keywords) if (ranked.length < wanted && !ranked.includes(k)) ranked.push(k);
  return ranked.slice(0, wanted);
}

/** A voice's ending in the text's script: Japanese, Chinese and Thai captions take no full stop, and a full-width "！". */
function ending(end: '' | '.' | '!', text: string): string {
  if (!UNSPACED.test(text)) return end;
  return end === '!' ? '！' : '';
}

export const FEATURE_ROLES = new Set<string>(['feature', 'benefit', 'solution']);

/** One caption per role; null where the listing had no fresh idea for that slide. */
export function writeCaptions(u: Understanding, roles: readonly Role[], style: CaptionStyle, length: CaptionLength): (Caption | null)[] {
  const writer = new CaptionWriter(u, style, length);
  return roles.map((role, i) => writer.caption(role, i + 1, roles.slice(i + 1).filter((r) => FEATURE_ROLES.has(r)).length));
}
