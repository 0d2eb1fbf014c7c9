/**
 * What a rule writer's caption says under its headline (docs/captions.md, "How a subheadline is
 * found"): the rest of the phrase's own sentence, the app's subtitle or promise, and under the hero or
 * the ask a spare sentence about the app.
 */
import { echoes, sameTopic, stem, substance } from '../checker/complete.ts';
import { type Phrase } from '../understand.ts';
import { capitalise, CASED_WORD, contentWords, END_PUNCT, SPACES, textKey, words } from '../text.ts';
import { dangles } from '../end-words.ts';
import { namesOnly } from '../checker/selling.ts';
import { heroSaysAgain, saysAgain, seamEcho } from '../checker/echo-pair.ts';
import { localePunctuation } from '../checker/typography.ts';
import { ending, WriterBase } from './writer-base.ts';
import { remainder } from './sentence-parts.ts';
import { opensOnHeadline, withoutNameLead } from './hero-restated.ts';

export class Subheadlines extends WriterBase {
  /**
   * Whether `sub` says a content word of `headline` again (by stem), the app's name aside. Not the
   * voice's words aside: a hero is framed by none but the name, and playful's "Your turn" would hide
   * "turn-by-turn".
   */
  private sharesWord(headline: string, sub: string): boolean {
    const head = substance(headline, this.u.language, this.nameWords);
    return [...substance(sub, this.u.language, this.nameWords)].some((w) => head.has(w));
  }

  /** Whether `text` says the app's short name. */
  protected namesApp(text: string): boolean {
    const name = textKey(this.u.shortName);
    return name.length > 0 && ` ${textKey(text)} `.includes(` ${name} `);
  }

  /** Whether `q` is a piece the reading cut from a longer line of the listing, not a line of its own. */
  private pieceOfLine(q: Phrase): boolean {
    const own = ` ${textKey(q.text)} `;
    const line = textKey(q.sentence);
    return this.u.phrases.some((r) => {
      const other = textKey(r.sentence);
      return other !== line && other.length > own.length && ` ${other} `.includes(own);
    });
  }

  protected finishSub(text: string, headline?: string): string | null {
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
  protected sub(
    headline: string,
    p: Phrase | null,
    o: {
      form?: string | null;
      extra?: string | null;
      spare?: 'any' | 'unsayable';
      allowEcho?: boolean;
      hero?: boolean;
      ask?: boolean;
      /** The only line that may stand under it: a purpose's own action. */
      own?: string;
    } = {},
  ): string | null {
    const candidates: string[] = [];
    if (o.own) candidates.push(o.own);
    else if (p) {
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
      // Under the hero, never one action cut from a longer line ("Save bakes" of "Save bakes and
      // share the tray"): half a bullet under the promise reads as a feature of any app (ninth
      // read, call g, M); the whole line, another line or none stands there instead.
      const spare = [...this.ordered.filter((q) => !this.shown.has(q)), ...this.ordered.filter((q) => this.shown.has(q))].filter(
        (q) => this.fresh(q) && q !== p && (o.spare === 'any' || !this.sayable(q)) && !(o.hero && this.pieceOfLine(q)),
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
    // Whether a line passes under this headline (`k`: its place among the candidates), or null.
    const fit = (text: string, k: number): string | null => {
      if (textKey(text) === textKey(headline)) return null;
      const out = this.finishSub(text, headline);
      // "Track unlimited habits with Streakly. / With a single tap.": two "with"s in a row read as a stutter.
      const framedBy = /\b(with|for|in|on|to)\b[^,.!?]*[.!?]?$/i.exec(headline)?.[1]?.toLowerCase();
      if (framedBy && out && out.split(SPACES)[0].toLowerCase() === framedBy) return null;
      // Echo judged on the phrase as said too: "Go ahead, save your looks!" is echoed by "Save your looks as…".
      if (
        !out ||
        textKey(headline).includes(textKey(out)) ||
        (k < candidates.length && (echoes(headline, out) || (o.form && echoes(o.form, out))))
      )
        return null;
      // Never the headline's own words in other forms, even where an echo is allowed: "REPORTS.
      // EXPORTED." over "Export reports to CSV and PDF" says one thing twice (the checker's echo).
      // Not under the hero or the ask (`spare`), which sum the app up and may name it the same way.
      if (!o.spare && saysAgain(headline, out, this.u.language, new Set([...this.nameWords, ...this.frameWords]))) return null;
      // Under the hero, not its headline's noun phrase again ("Treinos rápidos… / …reúne os treinos rápidos…").
      if (o.hero && heroSaysAgain(headline, out, this.u.language, this.appNameWords)) return null;
      // Under the ask, not the hero's noun phrase either, nor the app's name the ask has just said:
      // "Get Acme // Acme gathers the homemade recipes you love" under a hero "Homemade recipes…" asks
      // with the hero's line (fourth held-out read, D).
      if (o.ask && (heroSaysAgain(this.heroText, out, this.u.language, this.appNameWords) || this.namesApp(out))) return null;
      // Nor on the word the headline closes on ("JUMP, SPIN AND CLIMB. / Climb every peak…"), hero or not.
      if (seamEcho(headline, out, this.u.language, this.nameWords)) return null;
      // Nor what another slide already says: a sentence spent as a headline is not a subheadline too.
      const said = substance(out, this.u.language, this.nameWords);
      if (this.usedHeads.has(textKey(out)) || this.headTopics.some((t) => sameTopic(said, t))) return null;
      return out;
    };
    for (const [k, text] of (o.own ? [o.own] : [...candidates, ...echoing]).entries()) {
      let out = fit(text, k);
      if (!out) continue;
      // Under the hero, a line that says one of its headline's words again ("Offline maps and
      // turn-by-turn // Routely gives you turn-by-turn navigation that works without a signal") is
      // said from where that word is behind it, when the rest stands whole ("Navigation that works
      // without a signal"): the same line, so no other slide's feature is spent on the hero.
      // A hero named in its headline ("Kindred: Join Small Groups") is not named again as its sub's
      // subject ("Kindred helps you make new friends…"): the line is said without the name where it
      // stands whole so, or from where the headline's word is behind it. A sub that opens on nothing
      // but the headline's words ("…chess // Play chess against…") is passed over when no such part
      // stands: the next line says something new (seventh read, D).
      const named = o.hero && this.u.english && this.namesApp(headline) && this.namesApp(out);
      const restated = o.hero && opensOnHeadline(headline, out, this.u.language, this.nameWords);
      if (o.hero && (named || restated || this.sharesWord(headline, out))) {
        const unnamed = named ? withoutNameLead(text, this.u.shortName) : null;
        let better: string | null = null;
        for (const t of [...(unnamed ? [unnamed] : []), ...tailsOf(unnamed ?? text, headline, this.u.language)]) {
          const tail = fit(t, k);
          if (tail && !this.sharesWord(headline, tail) && !(named && this.namesApp(tail))) {
            better = tail;
            break;
          }
        }
        if (better) out = better;
        // Not for the name alone: a long hero needs a line, and the app's own line about itself may
        // be the only one no later slide needs (moneyjar's set fell a slide short without it).
        else if (restated) continue;
      }
      this.usedSubs.add(textKey(out));
      // A feature's sentence said under the hero or the ask is said: no later slide says it again
      // (receitas: "// Mais de 5.000 receitas com fotos" under the hero, then "Mais de 5.000 receitas").
      if (o.spare) for (const q of this.ordered) if (q !== p && textKey(q.sentence) === textKey(text)) this.usedPhrases.add(q);
      return out;
    }
    return null;
  }
}

/**
 * The later runs of a line, longest first, of three words or more, that start right after one of
 * the headline's words or a clause's end: where the line may be said from without that word.
 * "Turn-by-turn | navigation that works…" drops the headline's word; "a strong | engine…" would
 * drop the line's own article and adjective, and the noun alone reads clipped.
 */
function tailsOf(text: string, headline: string, language: string): string[] {
  const tokens = text.trim().split(SPACES);
  const key = (w: string) => (language === 'en' ? stem(w) : w.toLowerCase());
  const said = new Set(words(headline).map(key));
  return tokens
    .slice(1, -2)
    .map((_, i) => i + 1)
    .filter((at) => /[,;:]$/.test(tokens[at - 1]) || words(tokens[at - 1]).some((w) => said.has(key(w))))
    .map((at) => tokens.slice(at).join(' '));
}
