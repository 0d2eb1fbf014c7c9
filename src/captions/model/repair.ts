/**
 * The repair turn: the slides whose candidates all failed go back once, each candidate with what
 * was wrong with it in plain words (the checker's messages, which quote the caption and say why),
 * and the slides already kept with their words, so the new candidates say nothing they say.
 */
import type { Finding } from '../checker/check.ts';
import type { CaptionDraft, Written } from '../draft.ts';
import { CANDIDATES } from './request.ts';

/** One option the checker read, and what it found (none: it passed). */
export interface Verdict {
  caption: Pick<Written, 'headline' | 'subheadline'>;
  findings: Finding[];
}

/** A finding as a reader would say it: which line, and what is wrong with it. */
export const plainFinding = (f: Finding): string => `${f.field === 'subheadline' ? 'Subheadline' : 'Headline'}: ${f.message}.`;

export function repairRequest(draft: CaptionDraft, chosen: (Written | null)[], verdicts: Verdict[][], failing: number[]): string {
  return JSON.stringify({
    instruction: `Every candidate of the slides in \`rewrite\` broke a rule; what is wrong with each is said under it. Write ${CANDIDATES} new candidates for each of those slides only, best first, fixing every problem and keeping to all the rules. The slides in \`kept\` are final: say nothing they say.`,
    kept: chosen.flatMap((c, i) => (c ? [{ index: i + 1, role: draft.roles[i], headline: c.headline, subheadline: c.subheadline }] : [])),
    rewrite: failing.map((i) => ({
      index: i + 1,
      role: draft.roles[i],
      candidates: verdicts[i].map((v) => ({
        headline: v.caption.headline,
        subheadline: v.caption.subheadline,
        problems: v.findings.map(plainFinding),
      })),
    })),
  });
}
