/**
 * Writes one caption per slide from the listing's phrases, each slide about its own idea. Phrases
 * are used whole or in a shorter whole form, never cut to fit; a slide with no fresh idea left is
 * not written (the planner then drops it and says so).
 */
import nlp from 'compromise';
import { echoes, incompleteness, overlap, substance } from './quality.ts';
import { type Phrase, type Understanding } from './understand.ts';
import { applyCase, capitalise, contentWords, dangles, danglingWords, headlineKey } from './text.ts';
import { CAPTION_LENGTHS, type CaptionLength, type CaptionStyle } from './types.ts';
import { FOREIGN, VOICES, type Voice } from './voices.ts';

export interface Caption {
  headline: string;
  subheadline: string | null;
  keywords: string[];
}

const topic = (text: string, language: string, skip: Set<string>) => new Set(contentWords(text, language).map((w) => w.replace(/(ies|es|s)$/, '')).filter((w) => !skip.has(w)));
function sameIdea(a: Set<string>, b: Set<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / Math.min(a.size, b.size) >= 0.6;
}

export class CaptionWriter {
  private readonly voice: Voice;
  private readonly frames: Pick<Voice, 'hero' | 'feature' | 'step' | 'problem' | 'socialProof' | 'callToAction'>;
  private readonly dangling: Set<string>;
  private readonly max: number;
  private readonly subMax: number;
  private readonly vars: Record<string, string>;
  private readonly ordered: Phrase[];
  private readonly nameWords: Set<string>;
  private readonly usedHeads = new Set<string>();
  private readonly usedPhrases = new Set<Phrase>();
  private readonly usedSubs = new Set<string>();
  private readonly usedTopics: Set<string>[] = [];
  private readonly headTopics: Set<string>[] = [];
  private step = 0;

  constructor(private readonly u: Understanding, style: CaptionStyle, length: CaptionLength) {
    this.voice = VOICES[style];
    this.frames = u.english ? this.voice : FOREIGN;
    this.dangling = danglingWords(u.language);
    this.max = CAPTION_LENGTHS[length].headline;
    this.subMax = CAPTION_LENGTHS[length].subheadline;
    this.vars = { name: u.shortName, rating: u.rating?.value ?? '', count: u.rating?.count ?? '' };
    this.ordered = this.voice.order === 'score' ? [...u.phrases].sort((a, b) => b.score - a.score) : [...u.phrases];
    this.nameWords = new Set([...contentWords(`${u.name} ${u.category}`, u.language)]);
  }

  /** Brand spellings back (iCloud, EasyPlanner) after the voice's casing, except in capitals. */
  private cased(text: string): string {
    const out = applyCase(text, this.voice.casing, this.u.language, this.u.proper);
    if (this.voice.casing === 'upper') return out;
    return out.replace(/[\p{L}][\p{L}\p{N}'’]*/gu, (w) => this.u.brands.get(w.toLowerCase()) ?? w);
  }

  private fill(template: string, part: string | null, index: number): string | null {
    let missing = false;
    const at = template.indexOf('{p}');
    // A phrase inside a sentence loses its capital, unless it opens with a name.
    const inner = part && at > 0 && !this.u.proper.has((part.split(' ')[0] ?? '').toLowerCase()) && !/^\p{Lu}{2}/u.test(part) ? part.charAt(0).toLowerCase() + part.slice(1) : part;
    const filled = template.replace(/\{(\w+)\}/g, (_, k: string) => {
      const value = k === 'p' ? inner : k === 'n' ? String(index) : this.vars[k];
      if (!value) missing = true;
      return value ?? '';
    });
    if (missing) return null;
    const ends = /[.!?]$/.test(filled);
    const text = this.cased(filled) + (ends ? '' : this.voice.end);
    return text;
  }

  private acceptable(text: string | null): text is string {
    if (!text || text.length > this.max || (!this.u.english && dangles(text, this.dangling)) || this.usedHeads.has(headlineKey(text))) return false;
    // Not a near-repeat of a headline already on the set ("Download maps" after "Offline maps").
    const mine = substance(text, this.u.language, this.nameWords);
    if (mine.size > 0 && this.headTopics.some((t) => Math.min(t.size, mine.size) >= 1 && overlap(t, mine) >= 0.8)) return false;
    return incompleteness(text, this.u.language, this.u.proper) === null;
  }

  private forms(p: Phrase, preferCore: boolean): string[] {
    const cores = [...p.cores].reverse();
    return [...new Set(preferCore ? [...cores, p.text] : [p.text, ...p.cores])];
  }

  /** The first template × form that fits and reads whole. */
  private say(templates: string[], p: Phrase | null, index: number, preferCore: boolean): string | null {
    for (const form of p ? this.forms(p, preferCore) : [null]) {
      for (const t of templates) {
        if (!p && t.includes('{p}')) continue;
        const out = this.fill(t, form, index);
        if (this.acceptable(out)) return out;
      }
    }
    return null;
  }

  private fresh(p: Phrase): boolean {
    if (this.usedPhrases.has(p)) return false;
    const t = topic(p.text, this.u.language, this.nameWords);
    return !this.usedTopics.some((u) => sameIdea(t, u));
  }

  private commit(headline: string, p: Phrase | null, sub: string | null): Caption {
    this.usedHeads.add(headlineKey(headline));
    this.headTopics.push(substance(headline, this.u.language, this.nameWords));
    if (sub) this.headTopics.push(substance(sub, this.u.language, this.nameWords));
    if (p) {
      this.usedPhrases.add(p);
      this.usedTopics.push(topic(`${p.text}`, this.u.language, this.nameWords));
    }
    return { headline, subheadline: sub, keywords: slideKeywords(this.u, `${headline} ${sub ?? ''}`, this.voice.order === 'score' ? 5 : 3) };
  }

  private frameIdea(role: string, index: number, pool: Phrase[]): Caption | null {
    // First a phrase whose subheadline adds to its headline; only when none has one, a
    // subheadline that repeats the headline's words: a slide said twice beats no slide.
    return this.frameIdeaWith(role, index, pool, false) ?? (this.subMax > 0 ? this.frameIdeaWith(role, index, pool, true) : null);
  }

  private frameIdeaWith(role: string, index: number, pool: Phrase[], allowEcho: boolean): Caption | null {
    const long = this.subMax > 0;
    for (const p of pool) {
      if (!this.fresh(p)) continue;
      // A feature said whole in the headline leaves its subheadline nothing to add: say it short.
      // Cut at a word list, a phrase in another language may lose its meaning ("Le mode"): whole first.
      const preferCore = this.u.english && (this.voice.prefer === 'core' || (long && p.cores.length > 0 && headlineKey(p.sentence) === headlineKey(p.text)));
      const frames = role === 'how-it-works' ? this.frames.step : this.frames.feature[p.shape];
      const rotated = frames.map((_, i) => frames[(i + index) % frames.length]);
      // A step's number is taken only by the step that is written: steps stay 1, 2, 3.
      const n = role === 'how-it-works' ? this.step + 1 : index;
      const headline = this.say(rotated, p, n, preferCore);
      if (!headline) continue;
      const sub = long ? this.sub(headline, p, null, false, allowEcho) : null;
      // A long caption with nothing whole to say under it is not written: one slide fewer beats filler.
      if (long && sub === null) {
        this.usedHeads.delete(headlineKey(headline));
        continue;
      }
      if (role === 'how-it-works') this.step = n;
      return this.commit(headline, p, sub);
    }
    return null;
  }

  /** A caption for the slide, or null when the listing has no fresh idea left for it. */
  caption(role: string, index: number): Caption | null {
    const u = this.u;
    const long = this.subMax > 0;
    if (role === 'hero' || (role === 'solution' && u.promise && !this.usedPhrases.has(u.promise))) {
      // The promise when it can be said in a headline, else the first feature that can.
      let p: Phrase | null = null;
      let headline: string | null = null;
      for (const q of [...(u.promise && !this.usedPhrases.has(u.promise) ? [u.promise] : []), ...this.ordered.filter((x) => this.fresh(x))]) {
        headline = this.say(this.frames.hero, q, index, this.voice.prefer === 'core');
        if (headline) {
          p = q;
          break;
        }
      }
      headline ??= this.say(['{name}'], null, index, false);
      if (!headline) return null;
      return this.commit(headline, p, long ? (this.sub(headline, p, u.subtitle, true) ?? this.finishSub(u.category) ?? u.category.slice(0, this.subMax)) : null);
    }
    if (role === 'social-proof') {
      const headline = this.say(this.frames.socialProof, null, index, false);
      if (!headline || !u.rating) return null;
      const proof = (u.english ? this.voice.socialProofSub : '{count} · {rating}/5 ★').replace(/\{(\w+)\}/g, (_, k: string) => this.vars[k] ?? '');
      const sub = long ? (this.finishSub(proof) ?? proof) : null;
      return this.commit(headline, null, sub);
    }
    if (role === 'call-to-action') {
      const headline = this.say(this.frames.callToAction, null, index, false);
      if (!headline) return null;
      const named = long ? (this.finishSub(this.fill(u.english ? this.voice.callToActionSub : '{name}', null, index) ?? u.name) ?? u.name.slice(0, this.subMax)) : null;
      // A foreign call to action is the name itself: under it, the category rather than the name again.
      const sub = named && echoes(headline, named) ? (this.finishSub(u.category) ?? named) : named;
      return this.commit(headline, null, sub);
    }
    if (role === 'problem') {
      const p = u.problems.find((x) => !this.usedPhrases.has(x));
      if (!p) return null;
      const question = `${p.text}?`;
      const direct = this.acceptable(question) ? question : null;
      const headline = direct ?? (long ? this.say(this.frames.problem, null, index, false) : null);
      if (!headline) return null;
      this.usedPhrases.add(p);
      // Under a question that is the listing's own sentence, the sentence again would say it twice.
      const own = long ? this.finishSub(direct ? p.sentence : question) : null;
      const sub = own && echoes(headline, own) ? (this.sub(headline, null, null) ?? own) : own;
      return this.commit(headline, null, long ? sub : null);
    }
    if (role === 'how-it-works') return this.frameIdea(role, index, u.steps);
    const pool = role === 'benefit' ? [...this.ordered.filter((p) => p.shape !== 'imperative'), ...this.ordered.filter((p) => p.shape === 'imperative')] : this.ordered;
    return this.frameIdea(role, index, pool);
  }

  private finishSub(text: string): string | null {
    const t = text.replace(/\s+/g, ' ').trim();
    const body = t.replace(/[.!?…]+$/u, '');
    const ending = /[!?]$/.test(t) ? t.slice(-1) : this.voice.subEnd;
    const out = capitalise(this.voice.casing === 'upper' ? body : body.replace(/[\p{L}][\p{L}\p{N}'’]*/gu, (w) => this.u.brands.get(w.toLowerCase()) ?? w)) + ending;
    if (out.length > this.subMax || (this.u.english ? incompleteness(out, 'en', this.u.proper) !== null : dangles(out, this.dangling)) || this.usedSubs.has(headlineKey(out))) return null;
    return out;
  }

  /**
   * What the subheadline says under the headline: the phrase's own sentence when it adds to the
   * headline; when that sentence only opens with the headline's words ("Smart reminders that adapt
   * to your schedule"), the rest of it said on its own ("Adapt to your schedule"); else a line about
   * the app as a whole (its subtitle or promise). Never another feature's sentence: a slide shows one
   * feature. Null when nothing fits: the slide is not written.
   */
  private sub(headline: string, p: Phrase | null, extra?: string | null, anyIdea = false, allowEcho = false): string | null {
    const candidates: string[] = [];
    if (p) {
      for (const own of [p.sentence, p.text]) {
        const rest = remainder(headline, own);
        candidates.push(rest ?? own);
      }
    }
    if (extra) candidates.push(extra);
    if (this.u.subtitle) candidates.push(this.u.subtitle);
    if (this.u.promise && this.u.promise !== p) candidates.push(this.u.promise.sentence);
    // The hero sums the whole app up: any unused sentence about it may stand under it, prose first.
    if (anyIdea) {
      const spare = this.ordered.filter((q) => this.fresh(q) && q !== p);
      for (const q of [...spare.filter((q) => q.kind === 'sentence' || q.kind === 'action'), ...spare.filter((q) => q.kind !== 'sentence' && q.kind !== 'action')]) candidates.push(q.sentence);
    }
    // Last, when allowed, the phrase's own sentence even though it repeats the headline's words.
    const echoing = p && allowEcho ? [p.sentence, p.text] : [];
    for (const [k, text] of [...candidates, ...echoing].entries()) {
      if (headlineKey(text) === headlineKey(headline)) continue;
      const out = this.finishSub(text);
      if (!out || headlineKey(headline).includes(headlineKey(out)) || (k < candidates.length && echoes(headline, out))) continue;
      // Nor what another slide already says: a sentence spent as a headline is not a subheadline too.
      const said = substance(out, this.u.language, this.nameWords);
      if (this.usedHeads.has(headlineKey(out)) || this.headTopics.some((t) => overlap(said, t) >= 0.8 && Math.min(said.size, t.size) >= 1)) continue;
      this.usedSubs.add(headlineKey(out));
      return out;
    }
    return null;
  }
}

// Words a sentence's rest may open with and still stand as a line of its own.
const REST_OPENERS = /^(with|in|on|for|across|without|from|anywhere|everywhere|right|straight|at|to|by|into|through|over|around|under|when|while)\b/i;

/**
 * "Smart reminders" + "Smart reminders that adapt to your schedule" -> "adapt to your schedule":
 * the sentence after the headline's words, when it can stand alone (a verb phrase or a
 * prepositional one of three words or more); null otherwise.
 */
function remainder(headline: string, sentence: string): string | null {
  const bare = (t: string) => t.normalize('NFKC').replace(/^[^:]{1,40}:\s+/, '').replace(/[.!?…]+$/u, '').trim();
  const head = bare(headline).toLowerCase().split(/\s+/);
  const words = bare(sentence).split(/\s+/);
  if (head.length < 2 || words.length <= head.length) return null;
  const strip = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (!head.every((w, i) => strip(w) === strip(words[i]))) return null;
  const rest = words.slice(head.length).join(' ').replace(/^[,;:–—-]\s*/, '').replace(/^(that|which|who|and)\s+/i, '');
  if (rest.split(/\s+/).length < 2) return null;
  const terms = (nlp(rest.toLowerCase()).json() as { terms: { tags: string[] }[] }[])[0]?.terms ?? [];
  // A verb phrase ("adapt to your schedule"), a clause ("Wayfarer builds your itinerary") or a
  // prepositional phrase ("with a single tap") stands on its own; a bare noun tail does not.
  const verbal = terms.some((t) => t.tags.includes('Verb'));
  return verbal || REST_OPENERS.test(rest) ? rest : null;
}

/** A slide's keywords: the listing's own nouns and adjectives in its caption, topped up with the app's. */
export function slideKeywords(u: Understanding, text: string, wanted: number): string[] {
  const own = contentWords(text, u.language).filter((w) => u.sourceWords.has(w) && (!u.keywordish || u.keywordish.has(w)));
  const ranked = [...new Set([...own.filter((w) => u.keywords.includes(w)), ...own])];
  for (const k of u.keywords) if (ranked.length < wanted && !ranked.includes(k)) ranked.push(k);
  return ranked.slice(0, wanted);
}

/** One caption per role; null where the listing had no fresh idea for that slide. */
export function writeCaptions(u: Understanding, roles: string[], style: CaptionStyle, length: CaptionLength): (Caption | null)[] {
  const writer = new CaptionWriter(u, style, length);
  return roles.map((role, i) => writer.caption(role, i + 1));
}
