/**
 * What the model writer sends: the listing, the store's own rating, the screens (their text always,
 * their pictures with LLM_VISION), the audience extraContext names, the slides' roles, and the rules
 * the checker will judge the answer by, said in plain words rather than left for a repair turn.
 */
import { CAPTION_LENGTHS, CAPTION_STYLES, type CaptionStyle } from '../../core/set.ts';
import { primaryListing } from '../../core/listing.ts';
import type { Role } from '../../core/narratives.ts';
import { describeBudget } from '../checker/fit.ts';
import type { CaptionDraft } from '../draft.ts';
import type { Message, MessagePart } from './llm.ts';

export const CANDIDATES = 3;
const MAX_DESCRIPTION = 4000;
/** Store ratings from fewer people than this are no proof: the checker's and the rubric's bar. */
export const MIN_PROOF_RATINGS = 50;
/** Lines of a screen's text sent: a screen's title, tabs and first rows say what it shows. */
const SCREEN_LINES = 20;

/** Two captions each voice ships, to show the voice rather than describe it. */
const EXAMPLES: Record<CaptionStyle, [string, string]> = {
  'aso-expert': ['Track Every Habit in Seconds', 'Budget Planner for Couples'],
  minimal: ['Plan meals for the week', 'Your runs, mapped'],
  playful: ['Go ahead, skip the takeout!', 'Your plants will thank you'],
  bold: ['OWN YOUR MORNINGS.', 'EVERY RUN. MAPPED.'],
  professional: ['Close the books in minutes.', 'Invoices your clients pay on time.'],
};

const ROLE_BRIEF: Record<Role, string> = {
  hero: 'the app’s main promise, the reason to download',
  feature: 'one feature and what it does for the user',
  benefit: 'what the user gains, said as an outcome',
  'social-proof': 'the store’s own rating (storeRating), quoted exactly, or praise the listing itself quotes',
  'how-it-works': 'one numbered step of using the app',
  problem: 'the problem the user has, as the listing names it',
  solution: 'how the app solves that problem',
  'call-to-action': 'an invitation to download that does not repeat the first slide’s promise',
};

/**
 * Who the app is for, when extraContext says ("For busy parents", "Audience: nurses on night
 * shifts"): the phrase after the cue, up to the end of its sentence.
 */
export function audienceOf(extraContext: string | null): string | null {
  if (!extraContext) return null;
  const m = extraContext.match(
    /\b(?:audience|target(?:ed)?(?: users| audience)?|aimed at|built for|made for|designed for|written for|ideal for|perfect for|for)\s*:?\s+([^.\n;!?]{3,80})/iu,
  );
  return m ? m[1].trim() : null;
}

/** The rules the checker (../checker) judges a caption by, in the words a copywriter would use. */
function rules(draft: CaptionDraft, long: boolean, paid: boolean, language: string): string[] {
  const { check } = draft;
  return [
    'Every caption is a finished phrase: never end on "and", "with", "your", a comma or "...", never a listing sentence cut short, and never open a headline on "it" or "they".',
    'Claim only what the sources say: every number, rating, award, platform and feature you name must be in the listing, extraContext or a screen’s text. Say it in your own words: paraphrase is fine.',
    'Social proof quotes only `storeRating` as given (value and count); never a rating, award or user count from the description. Without `storeRating`, the proof slide praises what the listing itself quotes, with no figures.',
    'Each slide says something no other slide says; a feature slide shows one feature (not a list of actions) and not another slide’s feature again; the call to action does not repeat the first slide’s promise.',
    'Each of the first three slides (a proof or problem slide aside) says what the user gets, not only the app’s name or category.',
    'Only selling points: no headings ("Core features"), greetings, notes, disclaimers, promo codes or contact details.',
    long ? 'A subheadline adds to its headline and never repeats its words.' : '',
    'Never name a price, another store’s platform or the developer’s other apps, and never ask for ratings or reviews. No emoji, URLs, bullets, arrows, checkmarks or hidden characters.',
    check.captionStyle === 'bold'
      ? ''
      : 'No words in capitals except the brands and acronyms the listing writes so; brands spelt as the listing spells them.',
    'No complaint or pain question outside a problem slide.',
    `Every word in the listing's language (${language}), none of another.`,
    paid ? 'The app is paid: never call it free.' : '',
  ].filter(Boolean);
}

export interface ScreenPicture {
  /** 1-based, as in the request's `screens`. */
  screen: number;
  /** A data: URL of the screen downscaled to at most 768 px. */
  url: string;
}

/** The first request of a set: system rules, then the listing and slides as JSON (and the screens' pictures). */
export function captionRequest(draft: CaptionDraft, pictures: ScreenPicture[] = []): Message[] {
  const { input, check } = draft;
  const primary = primaryListing(input.listings, check.device);
  const limits = CAPTION_LENGTHS[check.captionLength];
  const long = limits.subheadline > 0;
  const budget = describeBudget(check.device, check.captionLength);
  // Numbered as framed (screen i is the i-th upload), so a screen's number means the same in its picture.
  const shown = (input.screenTexts ?? []).flatMap((s, i) =>
    s.text?.length ? [{ screen: i + 1, text: s.text.slice(0, SCREEN_LINES) }] : [],
  );
  const [a, b] = EXAMPLES[check.captionStyle];
  // A Mac listing's rating is not an iPhone set's (planning drops it from `u`), nor one from a handful of people.
  // Nor one under 4.0, which a shopper reads as a warning (checker/proof.ts, MIN_PROOF_RATING).
  const rated =
    draft.u.rating !== null && !draft.u.ratingWeak && primary.rating !== null && (primary.ratingCount ?? 0) >= MIN_PROOF_RATINGS;
  const audience = audienceOf(input.extraContext);
  const system = [
    'You are a senior app store copywriter. You write the captions of a screenshot set. Answer with JSON only.',
    `Voice: ${check.captionStyle} — ${CAPTION_STYLES[check.captionStyle]} Two captions in this voice: "${a}", "${b}".`,
    `Headline: at most ${limits.headline} characters and ${budget.headline}.`,
    long
      ? `Subheadline: at most ${limits.subheadline} characters and ${budget.subheadline}. Write one on every slide; null only on a slide (never the first) where the listing and extraContext give nothing that adds to the headline.`
      : 'Subheadline: always null.',
    `Give ${CANDIDATES} different candidates per slide, best first.`,
    audience ? `Write for ${audience} (\`audience\`).` : '',
    shown.length
      ? "`screens` is the visible text of the app's own screens: each caption is placed over the screen whose words it shares, so let each feature slide speak of what one screen shows."
      : '',
    pictures.length ? 'The pictures that follow are those screens, in the same order.' : '',
    'Each caption is checked against these rules; one that breaks any is not used:',
    ...rules(draft, long, primary.price > 0, primary.language).map((r) => `- ${r}`),
  ]
    .filter(Boolean)
    .join('\n');
  const user = JSON.stringify({
    listing: {
      name: primary.name,
      category: primary.category,
      subtitle: primary.subtitle,
      store: primary.store,
      platform: primary.platform,
      description: primary.description.slice(0, MAX_DESCRIPTION),
    },
    storeRating: rated ? { value: draft.u.rating!.value, count: draft.u.rating!.count } : null,
    extraContext: input.extraContext,
    ...(audience ? { audience } : {}),
    narrative: input.request.narrativeId ?? 'default',
    slides: draft.roles.map((role, i) => ({ index: i + 1, role, brief: ROLE_BRIEF[role] })),
    ...(shown.length ? { screens: shown } : {}),
  });
  const content: string | MessagePart[] = pictures.length
    ? [{ type: 'text', text: user }, ...pictures.map((p): MessagePart => ({ type: 'image_url', image_url: { url: p.url, detail: 'low' } }))]
    : user;
  return [
    { role: 'system', content: system },
    { role: 'user', content },
  ];
}
