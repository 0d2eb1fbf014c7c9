/**
 * Writes one caption per slide from the listing's phrases, each slide about its own idea. Phrases
 * are used whole or in a shorter whole form, never cut to fit; a slide with no fresh idea left is
 * not written (the planner then drops it and says so).
 */
import { PAIN_GONE } from '../checker/exclaim.ts';
import { echoes, substance } from '../checker/complete.ts';
import { type Phrase, type Understanding } from '../understand.ts';
import { textKey } from '../text.ts';
import { type CaptionLength, type CaptionStyle } from '../../core/set.ts';
import type { Role } from '../../core/narratives.ts';
import { SLOT, VOICES } from './voices.ts';
import { localePunctuation } from '../checker/typography.ts';
import { Subheadlines } from './subheadlines.ts';
import { bareThing, type Caption } from './writer-base.ts';

export { slideKeywords, type Caption } from './writer-base.ts';
export { doneForm, laterParts } from './sentence-parts.ts';

export class CaptionWriter extends Subheadlines {
  /**
   * Whether a slide standing on an action's headline says the action's purpose under it
   * (`purposeUnder`). The planner writes a set without it too, and keeps that one where saying the
   * purpose left a later slide empty: a set refused costs more than a purpose said on its own slide.
   */
  purposesUnder = true;

  protected frameIdea(role: Role, index: number, pool: Phrase[]): Caption | null {
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
    // A line said only without the voice's closing mark (`sayings`) comes after every line that
    // fits with it, so it takes no other line's place ("A tide chart for weekend sailors" before
    // the listing's features), but before a near miss (`weak`: what another line is for, a
    // half of the hero): it keeps a slide from going empty or weak. Never a step: a step that fits
    // only so would be said after the steps that follow it.
    const marked = (): Caption | null => {
      this.bareMarks = false;
      try {
        return once();
      } finally {
        this.bareMarks = true;
      }
    };
    let said = marked();
    if (role !== 'how-it-works' && (!said || said.weak)) {
      if (said) this.release(said);
      const bare = once();
      if (bare && !bare.weak) said = bare;
      else {
        if (bare) this.release(bare);
        said = said ? marked() : null;
      }
    }
    if (said || !this.heroTopic || role === 'how-it-works') return said;
    // Nothing fresh left: one of the things the hero named, on a slide of its own ("Cut videos"
    // after "Cut videos and add stickers"); the checker calls it a soft repeat, the planner warns.
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

  protected frameIdeaWith(role: Role, index: number, pool: Phrase[], mode: 'short' | 'adds' | 'echo' | 'headline-only'): Caption | null {
    const long = mode === 'adds' || mode === 'echo';
    const allowEcho = mode === 'echo';
    for (const p of pool) {
      if (!this.fresh(p)) continue;
      // A feature said whole in the headline leaves its subheadline nothing to add: say it short.
      // Cut at a word list, a phrase in another language may lose its meaning ("Le mode"): whole first.
      const preferCore =
        this.u.english && (this.voice.prefer === 'core' || (long && p.cores.length > 0 && textKey(p.sentence) === textKey(p.text)));
      const frames = role === 'how-it-works' ? this.stepFrames(long) : this.frames.feature[p.shape];
      const rotated = role === 'how-it-works' ? frames : frames.map((_, i) => frames[(i + index) % frames.length]);
      // A step's number is taken only by the step that is written: steps stay 1, 2, 3.
      const n = role === 'how-it-works' ? this.step + 1 : index;
      // The first headline with something whole to say under it: "Save your looks as presets —
      // Apply them to a whole album at once" when "Save your looks" leaves only "As presets and…".
      for (const { text: headline, form } of this.sayings(rotated, p, n, preferCore, !long)) {
        // A half of the hero's line ("Add stickers" after "Cut videos and add stickers") only where nothing
        // else is left, as the narrowing it is (`frameIdea`: warned as a soft repeat).
        if (!this.narrowing && form && this.halfOf(this.heroLine, form)) continue;
        // Where the headline is an action whose purpose is a phrase of its own ("Add photos to each
        // entry" of "… to keep the memory"), a long slide standing on its headline says that purpose
        // under it (issue 33, sixth held-out read: the purpose was a slide of its own after it, T).
        const purpose = !long && this.subMax > 0 && this.purposesUnder ? this.purposeUnder(headline, form, p) : null;
        const sub = long ? this.sub(headline, p, p.purposeOf ? { form, own: p.purposeOf } : { form, allowEcho }) : purpose;
        // A long caption with nothing whole to say under it waits for the headline-only pass: never filler.
        if (long && sub === null) continue;
        if (role === 'how-it-works') this.step = n;
        const c = this.commit(headline, p, sub);
        // A purpose is said last (writer-base.ts orders it after every other idea), and alone only
        // where the listing gives nothing else for the slide: a near miss, warned as one.
        if (p.purposeOf && !sub) {
          c.weak = [`"${headline}" says what "${p.purposeOf}" is for, not a feature of its own`];
          c.aside = true;
        } else if (bareThing(p) && !sub) c.weak = [`"${headline}" names a thing, not what it does for the user`];
        // A half of the hero's line, marked (`again`): the checker misses one whose words are in the
        // app's name too, and the planner ships one only in a set of the default five or fewer.
        else if (form && this.halfOf(this.heroLine, form)) {
          c.weak = [`"${headline}" shows one part of slide 1’s "${this.heroText}" again`];
          c.again = true;
        }
        // A later part of a line a slide already said ("Full-resolution precision" after the hero's "Edit
        // RAW photos with full-resolution precision") says that slide again, less (fifth read, D): parts
        // come last already; where one is all the slide has, it is warned as a near miss. Not a second
        // action of a list ("Chat before you meet" of "Join small groups…, chat before you meet…"):
        // each action of a list is a feature of its own.
        else if (this.parts.has(p) && !listed(p) && this.opened(p)) c.weak = [`"${headline}" is the rest of a line another slide says`];
        return c;
      }
    }
    return null;
  }

  private stepFrame: { long: boolean; frames: string[] } | null = null;

  /**
   * The step frames in the order a set tries them: first the one frame every step the listing states
   * can be said in ("Step 1:", "Step 2:", "Step 3:", or "1.", "2.", "3." where one step is too long
   * for "Step"), so a set numbers its steps one way (tenth read: "Step 1:" beside "2."); all of
   * them, in the voice's order, where no frame fits every step.
   */
  private stepFrames(long: boolean): string[] {
    if (this.stepFrame?.long === long) return this.stepFrame.frames;
    const all = this.frames.step;
    const fits = (t: string) =>
      this.u.steps.every((p, i) => {
        const preferCore =
          this.u.english && (this.voice.prefer === 'core' || (long && p.cores.length > 0 && textKey(p.sentence) === textKey(p.text)));
        return !this.sayings([t], p, i + 1, preferCore, !long).next().done;
      });
    const one = all.find(fits);
    this.stepFrame = { long, frames: one ? [one, ...all.filter((t) => t !== one)] : all };
    return this.stepFrame.frames;
  }

  /** Whether `text` opens on the app's short name ("Acme turns your week…"). */
  private opensOnName(text: string): boolean {
    const name = textKey(this.u.shortName);
    return name.length > 0 && `${textKey(text)} `.startsWith(`${name} `);
  }

  /** The first way the hero's frames say `q` without the app's name, or null. */
  private unnamedHero(q: Phrase, index: number, long: boolean): { text: string; form: string | null } | null {
    for (const s of this.sayings(this.frames.hero, q, index, this.voice.prefer === 'core', !long)) if (!this.namesApp(s.text)) return s;
    return null;
  }

  /**
   * The purpose phrase of the action `form` says (a phrase of `p`'s sentence whose `purposeOf` is that
   * form), said as a subheadline under `headline`, or null. A purpose is no feature of its own, so a
   * slide that stands on its headline (the lean pass, planning/plan.ts) spends no later slide's line
   * by saying it; said here, its words are the set's, and it is never a headline after it.
   */
  private purposeUnder(headline: string, form: string | null, p: Phrase): string | null {
    if (!form) return null;
    const q = this.u.phrases.find(
      (x) => x.purposeOf && x.sentence === p.sentence && textKey(x.purposeOf) === textKey(form) && this.fresh(x),
    );
    return q ? this.sub(headline, p, { form, own: q.text }) : null;
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
      const candidates = [
        ...(u.promise && !this.usedPhrases.has(u.promise) ? [u.promise] : []),
        ...fresh.filter(promised),
        ...fresh.filter((x) => !promised(x)),
      ];
      // The features a hero on `q` leaves the later slides: none of its own line's halves (a slide
      // saying "Add stickers" under a hero "Cut videos and add stickers" says the hero again).
      const left = (q: Phrase) => fresh.filter((x) => x !== q && !x.purposeOf && !this.halfOf(q.text, x.text)).length;
      const halved = (q: Phrase) => fresh.some((x) => x !== q && this.halfOf(q.text, x.text));
      // A hero whose line coordinates features the later slides would then need one by one gives
      // way to one that leaves them enough whole lines, where one does (sixth held-out read, D);
      // where none does, the first stays and its halves are the warned last resort, not a refusal.
      const enough = featuresAfter > 0 && candidates.some((q) => !q.purposeOf && !halved(q) && left(q) >= featuresAfter);
      for (const q of candidates) {
        if (q.purposeOf || (!long && bareThing(q))) continue;
        if (enough && halved(q) && left(q) < featuresAfter) continue;
        const s = this.sayings(this.frames.hero, q, index, this.voice.prefer === 'core', !long).next().value;
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
        // A purpose is no feature of its own (`purposeOf`): it fills no later slide.
        const spare = left(q) > featuresAfter;
        const underOf = (t: string, form: string | null) =>
          this.sub(t, q, { form, extra: u.subtitle, spare: spare ? 'any' : 'unsayable', hero: role === 'hero' }) ??
          this.sub(t, q, { form, spare: 'any', hero: role === 'hero' });
        const undo = this.snapshot();
        let head = s;
        let under = underOf(s.text, s.form);
        // "Acme: Meal plans for your month // Acme turns your month into…" says the app's name twice
        // (ninth read, D): where the subheadline opens on the name, the headline drops its "Acme:".
        const plain = under && this.opensOnName(under) && this.namesApp(s.text) ? this.unnamedHero(q, index, long) : null;
        if (plain) {
          undo();
          const other = underOf(plain.text, plain.form);
          if (other) [head, under] = [plain, other];
          else {
            undo();
            under = underOf(s.text, s.form);
          }
        }
        if (under) {
          [p, said, sub] = [q, head, under];
          break;
        }
      }
      if (!said && bare) [p, said] = [bare.q, bare.s];
      const headline = said?.text ?? this.say(['{name}'], null, index, false);
      if (!headline) return null;
      this.heroTopic = substance(headline, u.language, this.nameWords);
      this.heroText = headline;
      this.heroLine = p ? (said?.form ?? p.text) : null;
      if (long && !said) sub = this.sub(headline, null, { extra: u.subtitle, spare: 'any', hero: role === 'hero' });
      return this.commit(headline, p, sub, this.heroTopic);
    }
    if (role === 'social-proof') {
      // Long: the rating in the headline, how many rated under it, each figure said once.
      // Under 4.0 no boast: "3.9 stars and counting!" reads as irony (seventh held-out read). The plain frames.
      const frames = u.ratingWeak && u.english ? VOICES.minimal : this.frames;
      const headline = this.say(long ? frames.socialProofLong : frames.socialProof, null, index, false);
      if (!headline || !u.rating) return null;
      const proof = frames.socialProofLongSub.replace(SLOT, (_, k: string) => this.vars[k] ?? '');
      // A language whose words for ratings the writer does not know: the rating stands alone, no count as stars.
      const sub = long && proof.trim() ? (this.finishSub(proof) ?? proof) : null;
      this.proofSaid = true;
      const c = this.commit(headline, null, sub);
      // Under 4.0 a shopper reads the figure as a warning: a warned last resort (planning/plan.ts).
      if (u.ratingWeak) c.weak = [`"${headline}" quotes the store's rating of ${u.rating.value}, under 4.0: weak proof`];
      return c;
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
        u.rating && !u.ratingWeak && !this.proofSaid && u.english
          ? this.finishSub(this.voice.socialProofSub.replace(SLOT, (_, k: string) => this.vars[k] ?? ''))
          : null;
      const own = this.voice.callToActionSub ? this.fill(this.voice.callToActionSub, null, index) : null;
      const sub =
        rating ??
        (own && !echoes(headline, own) ? this.finishSub(own) : null) ??
        this.sub(headline, null, { extra: u.subtitle, spare: 'any', ask: true });
      return this.commit(headline, null, sub ?? null);
    }
    if (role === 'problem') {
      // "No more paper tickets" is the pain said as gone: a benefit, never asked as a problem.
      const p = u.problems.find((x) => !this.usedPhrases.has(x) && !PAIN_GONE.test(x.text));
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
    if (role === 'how-it-works') {
      // Each step in its turn: the next step the listing states, with a subheadline where one is
      // whole and on its headline where not. Offered all steps at once, the long pass took the
      // first step that had a subheadline and numbered it 1 (tenth read: step 2 as "Step 1"); a
      // step that cannot be said is not skipped either, or the next would take its number.
      const next = u.steps.find((s) => this.fresh(s));
      return next ? this.frameIdea(role, index, [next]) : null;
    }
    // A benefit is said as one where the listing has it (not an order), but a screen's feature before either.
    const rank = (p: Phrase) =>
      (p.purposeOf || bareThing(p) ? 8 : 0) +
      (this.parts.has(p) ? 4 : 0) +
      (this.shown.has(p) ? 0 : 2) +
      (p.shape === 'imperative' ? 1 : 0);
    const pool = role === 'benefit' ? [...this.ordered].sort((a, b) => rank(a) - rank(b)) : this.ordered;
    return this.frameIdea(role, index, pool);
  }
}

export const FEATURE_ROLES = new Set<string>(['feature', 'benefit', 'solution']);

/** One caption per role; null where the listing had no fresh idea for that slide. */
export function writeCaptions(u: Understanding, roles: readonly Role[], style: CaptionStyle, length: CaptionLength): (Caption | null)[] {
  const writer = new CaptionWriter(u, style, length);
  return roles.map((role, i) => writer.caption(role, i + 1, roles.slice(i + 1).filter((r) => FEATURE_ROLES.has(r)).length));
}

/**
 * Whether a phrase is a later action of its line's list ("…, chat before you meet, and see…",
 * "Syncs with iCloud and works offline"): a feature of its own, not the rest of its line.
 */
function listed(p: Phrase): boolean {
  const at = p.sentence.toLowerCase().indexOf(p.text.toLowerCase());
  if (at <= 0) return false;
  const before = p.sentence.slice(0, at).trim();
  return /,(\s*(and|or))?$/i.test(before) || (/\b(and|or)$/i.test(before) && p.shape === 'imperative');
}
