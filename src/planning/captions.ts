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
  private role: TemplateRole = 'hero';

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
    // Casing never shortens text, so an over-long fill can be dropped before the costly title-casing.
    if (missing || filled.length + this.voice.end.length > this.max) return null;
    const cased = applyCase(filled, this.voice.casing, this.u.language, this.u.proper);
    return /[.!?]$/.test(template) ? cased : cased + this.voice.end;
  }

  /** The template filled with as much of the phrase as fits; whole phrases only when `whole`. */
  private render(template: string, phrase: Phrase | null, whole: boolean): string | null {
    if (!template.includes('{p}')) return this.accept(this.fill(template, null));
    if (!phrase) return null;
    if ((template.startsWith('V:') && !phrase.imperative) || (template.startsWith('N:') && phrase.imperative)) return null;
    template = template.replace(/^[VN]:/, '');
    const forms = this.voice.prefer === 'clause' ? [phrase.clause, phrase.text] : [phrase.text, phrase.clause];
    // A long caption's subheadline can carry the full phrase, so the headline may keep just its head.
    const preferCut = this.u.english && this.subMax > 0 && this.role !== 'hero' && headlineKey(phrase.sentence) === headlineKey(phrase.text) && (phrase.cuts ?? []).some((k) => k >= 2);
    for (const form of [...new Set(forms)]) {
      const tokens = form.split(/\s+/).filter(Boolean);
      const n = tokens.length;
      let ks: number[];
      if (whole) ks = n <= this.voice.maxWords && !preferCut ? [n] : [];
      else {
        const cuts = (phrase.cuts ?? tokens.map((_, i) => i + 1)).filter((k) => k >= Math.min(2, n) && k < n && k <= this.voice.maxWords).sort((a, b) => b - a);
        ks = preferCut && n <= this.voice.maxWords ? [...cuts, n] : n <= this.voice.maxWords ? [n, ...cuts] : cuts;
      }
      for (const k of ks) {
        const part = tidyEnd(tokens.slice(0, k).join(' '), this.dangling);
        if (!part || (part.split(' ').length < 2 && n >= 2)) continue;
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
    // Under 30 characters "Step 1:" rarely fits, and a set should not mix "Step 1:" with "2.".
    const list = role === 'how-it-works' && this.max <= 30 ? [...this.templates[role]].sort((a, b) => Number(b.startsWith('{n}.')) - Number(a.startsWith('{n}.'))) : this.templates[role];
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
    this.role = r;
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
    const base = fitWords(this.u.shortName, this.max - 4, this.dangling) ?? '';
    return `${base} ${index}`.trim();
  }

  private sub(role: TemplateRole, headline: string, phrase: Phrase | null): string {
    const candidates: { text: string; phrase?: Phrase }[] = [];
    if (role === 'social-proof' && this.u.rating) candidates.push({ text: this.u.english ? this.fillPlain(this.voice.subTemplates.socialProof) : '{rating}/5 ★ · {count}'.replace('{rating}', this.vars.rating).replace('{count}', this.vars.count) });
    if (phrase) candidates.push({ text: phrase.sentence });
    if (role === 'hero' && this.u.subtitle) candidates.push({ text: this.u.subtitle });
    // Another phrase's sentence is spent on this slide, so it cannot come back later as a mismatched headline.
    const unused = this.ordered.filter((p) => !this.usedPhrases.has(p));
    for (const p of unused.filter((p) => p.kind === 'sentence')) candidates.push({ text: p.sentence, phrase: p });
    if (this.u.subtitle) candidates.push({ text: this.u.subtitle });
    candidates.push({ text: this.u.english ? this.fillPlain(this.voice.subTemplates.generic) : `${this.u.name} · ${this.u.category}` }, { text: this.u.name });
    const head = headlineKey(headline);
    for (const again of [false, true]) {
      for (const c of candidates) {
        // A one- or two-word fragment ("Explore.") says nothing under a headline; the fallbacks may be short.
        const minWords = c.phrase || c.text === phrase?.sentence ? 3 : 1;
        const out = fitWords(c.text, this.subMax, this.dangling, (s) => capitalise(s) + this.voice.subEnd, minWords);
        const key = out ? headlineKey(out) : '';
        if (!out || head.includes(key) || (!again && this.usedSubs.has(key))) continue;
        this.usedSubs.add(key);
        if (c.phrase) this.usedPhrases.add(c.phrase);
        return out;
      }
    }
    return capitalise(this.u.category) || this.u.name;
  }

  private fillPlain(template: string): string {
    return template.replace(/\{(\w+)\}/g, (_, k: string) => this.vars[k] ?? '');
  }

  private keywords(text: string): string[] {
    return slideKeywords(this.u, text, this.voice.order === 'score' ? 5 : 3);
  }
}

/** A slide's keywords: the listing's own nouns and adjectives in its caption, topped up with the app's. */
export function slideKeywords(u: Understanding, text: string, wanted: number): string[] {
  const own = contentWords(text, u.language).filter((w) => u.sourceWords.has(w) && (!u.keywordish || u.keywordish.has(w)));
  const ranked = [...new Set([...own.filter((w) => u.keywords.includes(w)), ...own])];
  for (const k of u.keywords) if (ranked.length < wanted && !ranked.includes(k)) ranked.push(k);
  return ranked.slice(0, wanted);
}

export function writeCaptions(u: Understanding, roles: string[], style: CaptionStyle, length: CaptionLength): Caption[] {
  const writer = new Writer(u, style, length);
  return roles.map((role, i) => writer.caption(role, i));
}
