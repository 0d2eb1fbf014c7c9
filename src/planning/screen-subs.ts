/** A long rule-written slide standing on its headline alone may take a line its own screen shows (OCR) as its subheadline. */
import { checkCaptions, type CheckContext } from '../captions/checker/check.ts';
import type { Role } from '../core/narratives.ts';
import type { Written } from '../captions/draft.ts';

/**
 * A long slide of the rule writer standing on its headline alone takes, as its subheadline, a line
 * its own screen shows (OCR) when that line says something whole: four words or more, in lower case
 * somewhere (a label or heading in capitals is not a line about the app), and passing every check in
 * the set without adding a finding to any slide (no cut, no echo, no repeat, nothing it claims
 * beyond the listing and the screens). The screen's own words, never cut: the line as it reads.
 */
export function screenSubheadlines(captions: Written[], roles: Role[], screenLines: (string[] | null)[], ctx: CheckContext): Written[] {
  if (ctx.captionLength !== 'long' || !captions.some((c) => c.source === 'rules' && c.subheadline === null)) return captions;
  const out = [...captions];
  const judge = (set: Written[]) =>
    checkCaptions(
      set.map((c, i) => ({ headline: c.headline, subheadline: c.subheadline, role: roles[i], index: i + 1 })),
      ctx,
    ).map((f) => f.length);
  let before = judge(out);
  out.forEach((c, i) => {
    if (c.source !== 'rules' || c.subheadline !== null || roles[i] === 'hero') return;
    for (const line of screenLines[i] ?? []) {
      const text = line.replace(/\s+/g, ' ').trim();
      if (text.split(' ').length < 4 || !/\p{Ll}/u.test(text) || /:$/.test(text)) continue;
      const trial = out.map((x, j) => (j === i ? { ...x, subheadline: text } : x));
      const after = judge(trial);
      if (after.every((n, j) => n <= before[j])) {
        out[i] = trial[i];
        before = after;
        break;
      }
    }
  });
  return out;
}
