/**
 * What the caption checker says and what it is asked about: the findings it names (docs/captions.md
 * lists each), a caption and its set's context, and which findings a copywriter lets a slide ship
 * with. The checking itself is ./check.ts (captions) and ./text-findings.ts (one line's text).
 */
import { type Role } from '../../core/narratives.ts';
import { CAPTION_LENGTHS, type CaptionLength, type CaptionStyle } from '../../core/set.ts';
import type { Listing } from '../../core/listing.ts';
import type { Device } from '../../core/devices.ts';

export const FINDINGS = {
  shape:
    'The caption has the parts its length asks for (no subheadline when short; when long, one on the hero, and elsewhere one or null, never empty).',
  fits: 'Fits its lines at the set’s type size, measured with the renderer’s fonts, and within the length’s characters.',
  complete: 'A finished phrase or sentence: no dangling word, no cut, no ellipsis.',
  echo: 'The subheadline adds to its headline instead of repeating it.',
  repeat: 'Says something no other slide of the set says.',
  generic: 'Says something about this app, not only its name or category in a template.',
  grounded: 'Every number, rating, award, platform and feature it claims is in the listing, extraContext or the screens’ text.',
  'policy.free': 'Does not call a paid app free.',
  'policy.price': 'Names no price.',
  'policy.platform': 'Names no other store’s platform.',
  'policy.review': 'Does not ask for ratings or reviews.',
  'policy.other-app': 'Does not advertise the developer’s other apps.',
  'policy.hidden': 'No hidden tags, invisible or look-alike characters, URLs or markup.',
  language: 'Written in the language of its locale.',
  style: 'No stray symbols, no shouting in capitals outside the bold voice, brands spelt as the listing spells them.',
  tone: 'No complaint or pain question outside a problem slide.',
  'one-feature': 'A feature slide shows one feature (no list of actions), and not the feature of an earlier slide.',
  'value-first': 'Each of the first three slides, proof and problem aside, carries the value, not the name or category alone.',
  cut: 'Not a listing sentence cut where its phrase does not end, nor a pronoun pointing at a sentence it was cut from.',
  frame: 'No voice frame glued to a phrase it does not fit ("Yes, …", "Get <verb> …", "Now you can <noun>").',
  'off-role': 'A selling point: no heading, greeting, note, disclaimer, promo code or story lore ("Chapter 1 of the saga").',
  rating: 'A rating or count of ratings the store’s own figures do not contradict; proof slides only from 50 ratings up.',
  'echo-pair':
    'A call to action asks once: its subheadline is not a second call, and it does not say the hero’s promise again. A slide states its rating once.',
  screens:
    "Set level: no screenshot framed twice while others go unused, none of the other orientation while ones of the slides' go unused, a Mac listing warned about.",
} as const;
export type FindingId = keyof typeof FINDINGS;

export interface Finding {
  id: FindingId;
  field: 'headline' | 'subheadline' | 'screenshot';
  message: string;
  /**
   * A case of a hard finding a copywriter lets pass where nothing better exists (`softFinding`);
   * false: a case of a soft kind that never passes (filler is `generic`, and never ships).
   */
  soft?: boolean;
}

export interface CaptionToCheck {
  headline: string;
  subheadline: string | null;
  role: Role;
  /** Its place in the set, from 1; absent: right after the slides accepted so far. */
  index?: number;
}

export interface CheckContext {
  listings: Listing[];
  extraContext: string | null;
  device: Device;
  captionLength: CaptionLength;
  captionStyle: CaptionStyle;
  /** The locale the captions are in; absent: the listing's own language. */
  locale?: string | null;
  /** The words read off the set's screens (OCR): a caption may claim what a screen shows. */
  screenText?: string[] | null;
}

/**
 * Refuses, on its characters alone, a caption too long for any set: twice the longest its field
 * holds (80 for a headline, 200 for a subheadline). A writer asks this first and has the checker
 * judge only what passes it: the tagger, fonts and patterns cost time per character (a 10 KB
 * caption of digits and commas took 2.7 s, and a model answer of such captions 55 s to judge).
 * Below that a caption is judged whole, so a slightly long one still hears everything else wrong
 * with it. Code points are counted, never more than the checker counts.
 */
export function tooLongToJudge(c: Pick<CaptionToCheck, 'headline' | 'subheadline'>, length: CaptionLength): Finding[] {
  const out: Finding[] = [];
  for (const field of ['headline', 'subheadline'] as const) {
    const text = c[field];
    const cap = 2 * Math.max(...Object.values(CAPTION_LENGTHS).map((l) => l[field]));
    if (!text || text.length <= cap) continue;
    const chars = [...text].length;
    if (chars <= cap) continue;
    const limit = CAPTION_LENGTHS[length][field];
    const quoted = `"${text.slice(0, 60)}…"`;
    if (limit === 0) out.push({ id: 'shape', field, message: `${quoted} is a subheadline; short captions have none` });
    else out.push({ id: 'fits', field, message: `${quoted} is ${chars} characters; ${length} ${field}s hold ${limit}` });
  }
  return out;
}

/**
 * Findings a senior copywriter lets a slide ship with when the listing gives nothing better for it
 * (docs/captions.md, "Hard and soft rules"): the caption is whole, true and the slide's own, only
 * weaker than it should be. A little generic, or standing in a weak role (value-first), on any slide
 * but the first; a busy headline (a `one-feature` marked `soft`); a feature headline that names one
 * of the things the hero's line named (a `repeat` marked `soft`). A slide close to an earlier slide's
 * feature is hard: it says the same thing twice.
 * The planner delivers such a caption only when no candidate passes, and names the weakness in the
 * set's warnings. Every other finding is hard and never ships: a cut or unfinished phrase, a broken
 * frame, an echo or repeat, off-role lines, a contradicted rating, an invented claim, policy,
 * language, style, tone, shape and fit.
 */
export function softFinding(f: Finding, c: Pick<CaptionToCheck, 'role' | 'index'>): boolean {
  if (c.role === 'hero' || (c.index ?? 1) <= 1) return false;
  // A subheadline of the name or category alone is padding, never shipped: the slide stands on its headline.
  if (f.soft === false) return false;
  return (f.id === 'generic' && f.field === 'headline') || f.id === 'value-first' || f.soft === true;
}

/** A near miss: findings, and every one of them soft. */
export const nearMiss = (findings: Finding[], c: Pick<CaptionToCheck, 'role' | 'index'>): boolean =>
  findings.length > 0 && findings.every((f) => softFinding(f, c));

/** The findings as one line each, for logs, warnings and a repair prompt. */
export const describeFindings = (findings: Finding[]): string[] => findings.map((x) => `${x.id} (${x.field}): ${x.message}`);
