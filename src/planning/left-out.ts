/**
 * What a planned set leaves of its listing unsaid, so its warnings quote only that: a feature the
 * set does not say, and why a long slide stands on its headline alone.
 */
import { sameTopic, substance } from '../captions/checker/complete.ts';
import { contentWords, textKey } from '../captions/text.ts';
import type { Phrase, Understanding } from '../captions/understand.ts';
import type { Caption } from '../captions/rules/writer.ts';
import type { Role } from '../core/narratives.ts';
import { inSpentLine, unsaidFeatures } from './refuse.ts';
import { leansOnPronoun } from '../captions/checker/cut.ts';
import { missingSubheadlinesWarning } from './story.ts';

type Said = Pick<Caption, 'headline' | 'subheadline'> & { phrase?: string };

/**
 * Whether a slide of the set says `phrase`: whole in one of its lines, or every word of substance
 * in its headline and subheadline together. "Capture ideas on iPhone and iPad" is said by "The
 * fastest way to capture ideas. // On iPhone and iPad.", so no warning calls it "more".
 */
export function setSays(slides: (Said | null)[], phrase: string, u: Pick<Understanding, 'name' | 'category' | 'language'>): boolean {
  const key = textKey(phrase);
  const nameWords = new Set(contentWords(`${u.name} ${u.category}`, u.language));
  const topic = substance(phrase, u.language, nameWords);
  return slides.some((c) => {
    if (c === null) return false;
    const lines = [c.headline, c.subheadline ?? ''];
    if (lines.some((t) => textKey(t).includes(key))) return true;
    const whole = substance(lines.join(' '), u.language, nameWords);
    return topic.size > 0 && [...topic].every((w) => whole.has(w));
  });
}

/**
 * Why a long slide has no subheadline, as its warning says it (./story.ts, missingSubheadlinesWarning).
 * `none` with `line` or `rating`: no feature is left, but the listing still has a line no slide says
 * (one about the app as a whole, "Acme is a planner for busy people") or the store's rating is on no
 * slide, so "no line left" would be untrue (ninth read): the warning names what is left instead.
 */
export type BareWhy = { why: 'rest'; rest: string } | { why: 'other'; line: string } | { why: 'none'; line?: string; rating?: string };

/**
 * Why slide `c` stands on its headline alone. `rest`: its own sentence goes on past its headline
 * ("Radar maps show storms | as they move") and the writer did not say that rest under it; `other`:
 * the listing's lines left unsaid (`unsaid`, ./refuse.ts) name other features, and a slide shows
 * one; `none`: the set says every line of the listing (fifth read: "no line left" was untrue
 * where a rest or a line was still unused).
 */
export function whyBare(
  c: Said,
  u: Pick<Understanding, 'phrases' | 'steps' | 'name' | 'category' | 'language'>,
  unsaid: string[],
  role: Role,
  others: Said[] = [],
): BareWhy {
  // The ask and the proof say no feature: their phrase's sentence is not theirs to go on with.
  const own =
    role === 'call-to-action' || role === 'social-proof' ? undefined : [...u.phrases, ...u.steps].find((p) => p.text === c.phrase);
  const head = textKey(c.headline).split(' ');
  const sentence = own ? textKey(own.sentence).split(' ') : [];
  // Past a voice's opener ("Go ahead,", "Step 3:"): the headline's words where its sentence starts them.
  for (let skip = 0; skip <= 3 && skip < head.length; skip++) {
    const rest = head.slice(skip);
    if (own && rest.length > 0 && rest.length < sentence.length && rest.every((w, i) => w === sentence[i])) {
      // Quoted as the listing writes it ("a coach's voice", not its key "a coach s voice").
      const key = sentence.slice(rest.length).join(' ');
      const words = own.sentence.replace(/[.!?]+$/, '').split(' ');
      const at = words.findIndex((_, k) => textKey(words.slice(k).join(' ')) === key);
      // After a comma the sentence lists other actions ("See rain minute by minute, | get severe
      // weather alerts and…"): no rest of this slide's, other features.
      // Nor on "and", "or": a second thing or action ("Speed camera warnings | and lane guidance keep…").
      if ((at > 0 && /[,;:]$/.test(words[at - 1])) || /^(and|or|then|&)$/i.test(words[at] ?? '')) break;
      const said = at >= 0 ? words.slice(at).join(' ') : key;
      // Nor one another slide says ("Scan barcodes | in store to compare prices nearby" beside
      // "Compare prices nearby"): under this headline it would repeat that slide.
      const nameWords = new Set(contentWords(`${u.name} ${u.category}`, u.language));
      const topic = substance(said, u.language, nameWords);
      const other = (o: Said) => substance(`${o.headline} ${o.subheadline ?? ''}`, u.language, nameWords);
      if (others.some((o) => sameTopic(topic, other(o), 0.5))) break;
      return { why: 'rest', rest: said };
    }
  }
  return unsaid.length > 0 ? { why: 'other', line: unsaid[0] } : { why: 'none' };
}

/**
 * The warnings for a long set's slides on a headline alone (`captions`, the delivered words;
 * `rules`, the rule writer's, whose phrase says what a slide is about): one per reason, a slide's
 * own rest one per slide, since each quotes its own.
 */
export function bareWarnings(captions: Said[], rules: (Caption | null)[], roles: Role[], u: Understanding): string[] {
  const said = captions.map((c, i) => ({ ...c, phrase: rules[i]?.headline === c.headline ? rules[i]?.phrase : undefined }));
  const unsaid = unsaidFeatures(u, said);
  const groups = new Map<string, { at: number[]; why: BareWhy }>();
  said.forEach((c, i) => {
    if (c.subheadline?.trim()) return;
    const why = whyBare(
      c,
      u,
      unsaid,
      roles[i],
      said.filter((_, j) => j !== i),
    );
    const key = why.why === 'rest' ? `rest ${i}` : why.why;
    const group = groups.get(key) ?? { at: [], why };
    group.at.push(i + 1);
    groups.set(key, group);
  });
  const left = leftUnsaid(said, u);
  return [...groups.values()].map((g) => missingSubheadlinesWarning(g.at, g.why.why === 'none' ? { ...g.why, ...left } : g.why));
}

/**
 * What the set leaves unsaid that is no feature: the listing's first line no slide says (nor spends a
 * piece of), and the store's rating where no slide quotes it. A line leaning on the one before it
 * ("Practise them later") says nothing alone and is not named.
 */
export function leftUnsaid(
  slides: Said[],
  u: Pick<Understanding, 'phrases' | 'rating' | 'ratingWeak' | 'name' | 'category' | 'language'>,
): { line?: string; rating?: string } {
  const spent = new Set(slides.map((c) => c.phrase));
  const spentSentences = new Set(u.phrases.filter((p) => spent.has(p.text)).map((p) => p.sentence));
  const rest = inSpentLine(u, spent);
  // Nor a line a slide said a piece of ("Clear space | by removing…"): its rest is that slide's.
  const pieces = [...spent].filter((t): t is string => !!t).map((t) => ` ${textKey(t)} `);
  const holdsSpent = (p: Phrase) => pieces.some((t) => ` ${textKey(p.sentence)} `.includes(t));
  const line = u.phrases.find(
    (p) =>
      !spent.has(p.text) &&
      !spentSentences.has(p.sentence) &&
      !rest(p) &&
      !holdsSpent(p) &&
      leansOnPronoun(p.text) === null &&
      !setSays(slides, p.text, u),
  );
  // A rating under 4.0 is no line to suggest (checker/proof.ts, MIN_PROOF_RATING).
  const r = u.ratingWeak ? null : u.rating;
  // "4.7" or "4,7": as the listing's language writes it.
  const quoted =
    r && slides.some((c) => [r.value, r.value.replace('.', ',')].some((v) => `${c.headline} ${c.subheadline ?? ''}`.includes(v)));
  return {
    ...(line ? { line: line.sentence.replace(/[.!]+$/, '') } : {}),
    ...(r && !quoted ? { rating: `${r.value} from ${r.count} ratings` } : {}),
  };
}
