/**
 * Writes one caption per slide from the listing's phrases, each slide about its own idea. Phrases
 * are used whole or in a shorter whole form, never cut to fit; a slide with no fresh idea left is
 * not written (the planner then drops it and says so).
 */
import { incompleteness, overlap, substance } from './quality.ts';
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
    const long = this.subMax > 0;
    for (const p of pool) {
      if (!this.fresh(p)) continue;
      // A feature said whole in the headline leaves its subheadline nothing to add: say it short.
      const preferCore = this.voice.prefer === 'core' || (long && p.cores.length > 0 && headlineKey(p.sentence) === headlineKey(p.text));
      const frames = role === 'how-it-works' ? this.frames.step : this.frames.feature[p.shape];
      const rotated = frames.map((_, i) => frames[(i + index) % frames.length]);
      const headline = this.say(rotated, p, role === 'how-it-works' ? ++this.step : index, preferCore);
      if (!headline) continue;
      const sub = long ? this.sub(headline, p) : null;
      // A long caption with nothing whole to say under it is not written: one slide fewer beats filler.
      if (long && sub === null) {
        this.usedHeads.delete(headlineKey(headline));
        continue;
      }
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
      return this.commit(headline, p, long ? (this.sub(headline, p, u.subtitle) ?? this.finishSub(u.category) ?? u.category.slice(0, this.subMax)) : null);
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
      const sub = long ? (this.finishSub(this.fill(u.english ? this.voice.callToActionSub : '{name}', null, index) ?? u.name) ?? u.name.slice(0, this.subMax)) : null;
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
      return this.commit(headline, null, long ? this.finishSub(direct ? p.sentence : question) : null);
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

  /** A whole sentence that adds to the headline: its own phrase's, else another unused one. Never a cut one. */
  private sub(headline: string, p: Phrase | null, extra?: string | null): string | null {
    const candidates: { text: string; phrase?: Phrase }[] = [];
    if (p) candidates.push({ text: p.sentence }, { text: p.text });
    if (extra) candidates.push({ text: extra });
    // Prose first; a list item spent here is one slide fewer, which beats a subheadline said twice.
    const spare = this.ordered.filter((q) => this.fresh(q) && q !== p);
    for (const q of [...spare.filter((q) => q.kind === 'sentence' || q.kind === 'action'), ...spare.filter((q) => q.kind !== 'sentence' && q.kind !== 'action')]) candidates.push({ text: q.sentence, phrase: q });
    if (this.u.subtitle) candidates.push({ text: this.u.subtitle });
    if (this.u.promise) candidates.push({ text: this.u.promise.sentence });
    for (const c of candidates) {
      if (headlineKey(c.text) === headlineKey(headline)) continue;
      const out = this.finishSub(c.text);
      if (!out || headlineKey(headline).includes(headlineKey(out))) continue;
      this.usedSubs.add(headlineKey(out));
      if (c.phrase) {
        this.usedPhrases.add(c.phrase);
        this.usedTopics.push(topic(c.phrase.text, this.u.language, this.nameWords));
      }
      return out;
    }
    return null;
  }
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
