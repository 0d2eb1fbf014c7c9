/** Writes one caption per slide in a voice, under the length rules, never repeating a headline. */
import { type Phrase, type Understanding } from './understand.ts';
import { capitalise, contentWords, dangles, danglingWords, fitWords, headlineKey, applyCase, tidyEnd } from './text.ts';
import { CAPTION_LENGTHS, type CaptionLength, type CaptionStyle } from './types.ts';
import { FOREIGN_TEMPLATES, VOICES, type TemplateRole, type Voice } from './voices.ts';

export interface Caption {
  headline: string;
  subheadline: string | null;
  keywords: string[];
}

const KIND_ORDER: Record<Phrase['kind'], number> = { context: 0, subtitle: 1, bullet: 2, action: 2, heading: 2, sentence: 3 };

class Writer {
  private readonly voice: Voice;
  private readonly templates: Record<TemplateRole, string[]>;
  private readonly dangling: Set<string>;
  private readonly max: number;
  private readonly subMax: number;
  private readonly vars: Record<string, string>;
  private readonly ordered: Phrase[];
  private readonly usedHeads = new Set<string>();
  private readonly usedPhrases = new Set<Phrase>();
  private readonly usedSubs = new Set<string>();
  private step = 0;

  constructor(private readonly u: Understanding, style: CaptionStyle, length: CaptionLength) {
    this.voice = VOICES[style];
    this.templates = u.english ? this.voice.templates : FOREIGN_TEMPLATES;
    this.dangling = danglingWords(u.language);
    this.max = CAPTION_LENGTHS[length].headline;
    this.subMax = CAPTION_LENGTHS[length].subheadline;
    this.vars = { name: u.shortName, category: u.category, rating: u.rating?.value ?? '', count: u.rating?.count ?? '' };
    this.ordered = [...u.phrases].sort((a, b) =>
      this.voice.order === 'score' ? b.score - a.score : KIND_ORDER[a.kind] - KIND_ORDER[b.kind],
    );
  }

  private fill(template: string, part: string | null): string | null {
    let missing = false;
    const filled = template.replace(/\{(\w+)\}/g, (_, k: string) => {
      const value = k === 'p' ? part : this.vars[k];
      if (!value) missing = true;
      return value ?? '';
    });
    if (missing) return null;
    const cased = applyCase(filled, this.voice.casing, this.u.language, this.u.proper);
    return /[.!?]$/.test(template) ? cased : cased + this.voice.end;
  }

  /** The template filled with as much of the phrase as fits; whole phrases only when `whole`. */
  private render(template: string, phrase: Phrase | null, whole: boolean): string | null {
    if (!template.includes('{p}')) return this.accept(this.fill(template, null));
    if (!phrase) return null;
    const forms = this.voice.prefer === 'clause' ? [phrase.clause, phrase.text] : [phrase.text, phrase.clause];
    for (const form of [...new Set(forms)]) {
      const tokens = form.split(/\s+/).filter(Boolean);
      if (whole && tokens.length > this.voice.maxWords) continue;
      const top = Math.min(tokens.length, this.voice.maxWords);
      const floor = whole ? top : Math.min(2, tokens.length);
      for (let k = top; k >= floor; k--) {
        if (k < tokens.length && phrase.cuts && !phrase.cuts.includes(k)) continue;
        const part = tidyEnd(tokens.slice(0, k).join(' '), this.dangling);
        if (!part || part.split(' ').length < Math.min(floor, 2)) continue;
        const out = this.accept(this.fill(template, part));
        if (out) return out;
      }
    }
    return null;
  }

  private accept(text: string | null): string | null {
    if (!text || text.length > this.max || dangles(text, this.dangling) || this.usedHeads.has(headlineKey(text))) return null;
    return text;
  }

  private pool(role: TemplateRole): Phrase[] {
    const free = this.ordered.filter((p) => !this.usedPhrases.has(p));
    if (role === 'hero') return [...free.filter((p) => p.kind === 'subtitle' || p.kind === 'context'), ...free];
    if (role === 'how-it-works') return [...free.filter((p) => p.imperative), ...free.filter((p) => !p.imperative)];
    if (role === 'benefit') return [...free.filter((p) => !p.imperative), ...free.filter((p) => p.imperative)];
    if (role === 'problem') return this.u.problems.filter((p) => !this.usedPhrases.has(p));
    return free;
  }

  private pick(role: TemplateRole, index: number): { headline: string; phrase: Phrase | null } | null {
    const list = this.templates[role];
    // Rotating a voice's framings keeps consecutive feature slides from sounding alike.
    const rotated = role === 'feature' || role === 'benefit' ? list.map((_, i) => list[(i + index) % list.length]) : list;
    const pool = this.pool(role);
    // Consecutive phrase templates are tried phrase by phrase: the best phrase matters more than its framing.
    const runs: string[][] = [];
    for (const t of rotated) {
      const last = runs[runs.length - 1];
      if (t.includes('{p}') && last?.[0].includes('{p}')) last.push(t);
      else runs.push([t]);
    }
    for (const whole of [true, false]) {
      for (const run of runs) {
        if (!run[0].includes('{p}')) {
          const out = whole ? this.render(run[0], null, true) : null;
          if (out) return { headline: out, phrase: null };
          continue;
        }
        for (const phrase of pool.slice(0, whole ? 8 : 4)) {
          for (const template of run) {
            const out = this.render(template, phrase, whole);
            if (out) return { headline: out, phrase };
          }
        }
      }
    }
    return null;
  }

  caption(role: string, index: number): Caption {
    const r = (role in this.templates ? role : 'feature') as TemplateRole;
    if (r === 'how-it-works') this.vars.n = String(++this.step);
    const chosen =
      this.pick(r, index) ??
      (r === 'feature' ? null : this.pick('feature', index)) ??
      this.pick('generic', index) ?? { headline: this.lastResort(index), phrase: null };
    this.usedHeads.add(headlineKey(chosen.headline));
    if (chosen.phrase) this.usedPhrases.add(chosen.phrase);
    const subheadline = this.subMax > 0 ? this.sub(r, chosen.headline, chosen.phrase) : null;
    return { headline: chosen.headline, subheadline, keywords: this.keywords(`${chosen.headline} ${subheadline ?? ''}`) };
  }

  private lastResort(index: number): string {
    const base = fitWords(this.u.shortName, this.max - 4, this.dangling) ?? this.u.shortName.slice(0, 0);
    return `${base} ${index}`.trim();
  }

  private sub(role: TemplateRole, headline: string, phrase: Phrase | null): string {
    const candidates: string[] = [];
    if (role === 'social-proof' && this.u.rating) candidates.push(this.fillPlain(this.voice.subTemplates.socialProof));
    if (phrase) candidates.push(phrase.sentence);
    if (role === 'hero' && this.u.subtitle) candidates.push(this.u.subtitle);
    for (const p of this.ordered) if (!this.usedPhrases.has(p)) candidates.push(p.sentence);
    for (const p of this.ordered) candidates.push(p.sentence);
    candidates.push(this.u.english ? this.fillPlain(this.voice.subTemplates.generic) : `${this.u.name} · ${this.u.category}`, this.u.name);
    const head = headlineKey(headline);
    for (const pass of [false, true]) {
      for (const c of candidates) {
        const out = fitWords(c, this.subMax, this.dangling, (s) => capitalise(s) + this.voice.subEnd, Math.min(3, c.split(/\s+/).length));
        if (!out || headlineKey(out) === head || (!pass && this.usedSubs.has(headlineKey(out)))) continue;
        this.usedSubs.add(headlineKey(out));
        return out;
      }
    }
    return capitalise(this.u.category) || this.u.name;
  }

  private fillPlain(template: string): string {
    return template.replace(/\{(\w+)\}/g, (_, k: string) => this.vars[k] ?? '');
  }

  private keywords(text: string): string[] {
    const own = contentWords(text, this.u.language).filter((w) => this.u.sourceWords.has(w) && (!this.u.keywordish || this.u.keywordish.has(w)));
    const ranked = [...new Set([...own.filter((w) => this.u.keywords.includes(w)), ...own])];
    const wanted = this.voice.order === 'score' ? 5 : 3;
    for (const k of this.u.keywords) if (ranked.length < wanted && !ranked.includes(k)) ranked.push(k);
    return ranked.slice(0, wanted);
  }
}

export function writeCaptions(u: Understanding, roles: string[], style: CaptionStyle, length: CaptionLength): Caption[] {
  const writer = new Writer(u, style, length);
  return roles.map((role, i) => writer.caption(role, i));
}
