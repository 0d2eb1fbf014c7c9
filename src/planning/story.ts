/**
 * The story adapts to what the listing says: steps and problems only where it states them, social
 * proof only with a rating worth showing. Each change is told in a warning.
 */
import type { Role } from '../core/narratives.ts';
import type { CaptionLength } from '../core/set.ts';
import type { Understanding } from '../captions/understand.ts';

const slideList = (ns: number[]) => (ns.length === 1 ? `Slide ${ns[0]}` : `Slides ${ns.slice(0, -1).join(', ')} and ${ns[ns.length - 1]}`);

export function adaptRoles(
  asked: Role[],
  u: Pick<Understanding, 'rating' | 'ratingTooLow' | 'steps' | 'problems'> & { ratingTooFew?: boolean; ratingWeak?: boolean },
  warnings: string[],
  length: CaptionLength,
): Role[] {
  const roles = [...asked];
  const swapped = (from: Role, to: Role, why: string) => {
    const at = roles.flatMap((r, i) => (r === from ? [i + 1] : []));
    if (at.length === 0) return;
    for (const i of at) roles[i - 1] = to;
    warnings.push(
      `${slideList(at)} ${at.length === 1 ? 'shows' : 'show'} a feature instead of ${from === 'how-it-works' ? 'a step' : from.replace('-', ' ')}: ${why}.`,
    );
  };
  if (!u.rating)
    swapped(
      'social-proof',
      'feature',
      u.ratingTooLow
        ? "the listing's rating is below 3.5, which would not persuade"
        : u.ratingTooFew
          ? 'the store shows fewer than 50 ratings, too few to quote as proof'
          : 'the listing has no rating yet',
    );
  // Under 4.0 the rating reads as a warning: no story's proof slide leads with it or counts on it; the
  // default story may still show it as its last resort, warned (plan.ts), in a set of five or fewer.
  else if (u.ratingWeak)
    swapped(
      'social-proof',
      'feature',
      `the listing's rating (${u.rating.value}) is under 4.0, which a shopper reads as a warning, not proof`,
    );
  const steps = roles.filter((r) => r === 'how-it-works').length;
  if (steps > 0 && u.steps.length < steps)
    swapped('how-it-works', 'feature', `the listing does not state ${steps} steps of how the app works`);
  const problems = roles.filter((r) => r === 'problem').length;
  // A short headline cannot hold a whole question, and a long one frames it above its subheadline.
  const askable = u.problems.filter((p) => length === 'long' || p.text.length < 30);
  if (problems > 0 && askable.length < problems) {
    const at = roles.indexOf('problem');
    roles[at] = roles.includes('hero') ? 'feature' : 'hero';
    warnings.push(
      `Slide ${at + 1} shows the app's promise instead of a problem: the listing names no problem${length === 'short' && u.problems.length ? ' short enough for a headline' : ''} to open with.`,
    );
  }
  return roles;
}

/**
 * A long set's slides that stand on their headline alone (1-based), with the true reason and how to
 * give them a subheadline (./left-out.ts, whyBare): the rest of a slide's own sentence the caption
 * writer did not say under it (only that: no check is run on it here, so none is claimed); lines
 * left that name other features; or no line left.
 */
export function missingSubheadlinesWarning(
  at: number[],
  why: { why: 'rest'; rest: string } | { why: 'other'; line: string } | { why: 'none'; line?: string; rating?: string } = { why: 'none' },
): string {
  const one = at.length === 1;
  const they = one ? 'it' : 'them';
  const head = `${slideList(at)} ${one ? 'has' : 'have'} a headline but no subheadline`;
  const revise = `write ${they} a subheadline in a free revision (POST /public/v1/jobs/{id}/revisions)`;
  if (why.why === 'rest')
    return `${head}: the rest of ${one ? 'its' : 'their'} sentence in the listing ("${why.rest}") is not said under ${one ? 'it' : 'them'}. If it reads well to you as a subheadline, ${revise}; or add a line about that feature as extraContext (POST /public/v1/apps) and plan the set again.`;
  if (why.why === 'other')
    return `${head}: the listing's lines the set does not say yet ("${why.line}") name another feature, and a slide shows one. Add a line about ${one ? 'that slide’s feature' : 'those slides’ features'} as extraContext (POST /public/v1/apps) and plan the set again, or ${revise}.`;
  // Something is left, but no feature: say what, and that the writer found no subheadline in it.
  // "No line left" with the rating or a line about the app unused was untrue (ninth read, t30, t50).
  if (why.why === 'none' && (why.line || why.rating)) {
    const left = [...(why.line ? [`the listing's line "${why.line}"`] : []), ...(why.rating ? [`the store's rating (${why.rating})`] : [])];
    const both = left.length > 1;
    return `${head}: ${left.join(' and ')} ${both ? 'are' : 'is'} said on no slide, but the caption writer found no subheadline in ${both ? 'them' : 'it'} for ${one ? 'this slide' : 'these slides'} that passes the caption checks. If ${both ? 'one' : 'it'} reads well to you under ${they}, ${revise}; or add a few lines about the app as extraContext (POST /public/v1/apps) and plan the set again.`;
  }
  return `${head}: the listing has no line left that adds to ${one ? 'its headline' : 'their headlines'} without repeating another slide. Add a few lines about the app as extraContext (POST /public/v1/apps) and plan the set again, or ${revise}.`;
}

/**
 * A slide shipped with a caption that misses only soft rules (captions/checker/check.ts,
 * `softFinding`): it says which, in the checker's words, and how to do better.
 */
export function nearMissWarning(slide: number, weak: string[], unsaid: string[] = []): string {
  // "Nothing better" only where the listing has no feature left; else the one left, and that it did
  // not pass whole (ninth read: a line too long for the length is not "nothing").
  const why = unsaid.length
    ? `The listing's line left ("${unsaid[0]}") could not be said on it as a whole caption that passes the caption checks.`
    : 'The listing gives nothing better for it.';
  return `Slide ${slide} has a weaker caption than the rest: ${weak.join('; ')}. ${why} Add a few lines about the app as extraContext (POST /public/v1/apps) and plan the set again, or rewrite it in a free revision (POST /public/v1/jobs/{id}/revisions).`;
}

/**
 * A feature slide of the default story given to the download ask or the store's rating instead. The
 * reason said is the true one: the listing named no more features, or it named more (`unsaid`, the
 * first quoted) that the rule writer could not say as a whole caption that passes the checks, which
 * the user can fix by writing the slide or adding a line (read 2026-11-28: "fewer features" was false
 * on 5 of 6 sets).
 */
export function insteadOfFeatureWarning(
  slide: number,
  instead: 'ask' | 'proof',
  unsaid: string[],
  /** The feature the rating replaces, and why it was not said: only on a headline alone, or only as the hero again. */
  spare: { phrase: string; why: 'sub' | 'hero' | 'aside'; form?: string; tooLong?: CaptionLength } | null = null,
): string {
  const head = `Slide ${slide} ${instead === 'ask' ? 'asks for the download instead of showing' : "shows the app's rating instead of"} another feature`;
  // A long slide the writer could fill only with a headline alone ("Lista de compras automática"
  // with nothing left to say under it): said so, since another set says that feature whole.
  if (spare?.why === 'sub')
    return `${head}: the listing names more ("${spare.phrase}"), but has no line left to say under it as a subheadline, and the rating says more than a headline alone. Write that slide yourself (slides), or add a line about it as extraContext (POST /public/v1/apps) and plan the set again.`;
  // "Download offline maps" under the hero "Offline trail maps": a feature that would say slide 1 again (third held-out read).
  // "Hear the first word again" of "Add recordings to each entry to hear…": what another line is for.
  if (spare?.why === 'aside')
    return `${head}: the listing's line left ("${spare.phrase}") says only what another of its lines is for, not a feature of its own. Write that slide yourself (slides), or add a line about another feature as extraContext (POST /public/v1/apps) and plan the set again.`;
  if (spare?.why === 'hero' && spare.form && spare.tooLong)
    return `${head}: the listing's line left ("${spare.phrase}") is too long for a ${spare.tooLong} headline, and its shorter form ("${spare.form}") says the hero's words again. Write that slide yourself (slides), or add a line about it as extraContext (POST /public/v1/apps) and plan the set again.`;
  if (spare?.why === 'hero')
    return `${head}: the listing's line left ("${spare.phrase}") says the hero's words again. Write that slide yourself (slides), or add a line about it as extraContext (POST /public/v1/apps) and plan the set again.`;
  if (unsaid.length === 0) return `${head}: the listing names fewer features than the set has slides for.`;
  const more = unsaid.length > 1 ? ` and ${unsaid.length - 1} more` : '';
  return `${head}: the listing names more ("${unsaid[0]}"${more}), but none could be said as a whole caption that passes the caption checks. Write that slide yourself (slides), or add a line about it as extraContext (POST /public/v1/apps) and plan the set again.`;
}
