/**
 * Why a set cannot be made as asked, said so the client knows what to add. A set is exactly as
 * long as asked or refused (before the charge at the API; failed and refunded in a job): never
 * shorter at full price.
 */
import { Problem } from './problem.ts';
import { CAPTION_LENGTHS, type CaptionLength } from './set.ts';

const slides = (n: number) => `${n} slide${n === 1 ? '' : 's'}`;

/** The listing gives `supported` slides that pass the caption checker, of the `asked`. */
export function cannotFillSet(asked: number, supported: number, descriptionEmpty: boolean): Problem {
  // Fewer slides are offered only where some count fills: "supports 0 … or ask for fewer slides" sent
  // the user to a second refusal (a recordings read).
  const fewer = supported > 0;
  return new Problem(
    'cannot_fill_set',
    `The listing${descriptionEmpty ? ' (it has no description)' : ''} supports ${slides(supported)} with captions that pass the caption checks, not the ${asked} asked for. Add a few lines about the app as extraContext (POST /public/v1/apps)${fewer ? ', write the captions yourself with "slides", or ask for fewer slides.' : ', or write the captions yourself with "slides".'}`,
    { asked, supported, fixes: fewer ? ['extraContext', 'slides', 'count'] : ['extraContext', 'slides'] },
  );
}

/**
 * Nothing to frame: no listing screenshot of the device's family and no uploaded screen for it.
 * Why: `own-listing`, the app is not in a store yet, so its uploaded screens are all there can be;
 * `mac-listing`, the listing is a Mac App Store app's, asked for an iPhone or iPad set: that is the
 * reason, not a missing screenshot.
 */
export function nothingToFrame(device: string, family: string, why: 'own-listing' | 'mac-listing' | null = null): Problem {
  const label = family === 'iphone' ? 'iPhone' : family === 'ipad' ? 'iPad' : family;
  if (why === 'own-listing')
    return new Problem(
      'cannot_fill_set',
      `The app is not in a store yet, so the slides can only frame its own screens, and it has no uploaded ${family} screens. Upload screens of the app (POST /public/v1/apps/{appId}/screens, PNG or JPEG) for ${/^[aeiou]/i.test(device) ? 'an' : 'a'} ${device} set.`,
      { asked: null, supported: 0, fixes: ['screens'] },
    );
  if (why === 'mac-listing')
    return new Problem(
      'cannot_fill_set',
      `The app's listing is a Mac app's (Mac App Store): its screenshots are a Mac's, not ${/^[aeiou]/i.test(label) ? 'an' : 'a'} ${label}'s, so they cannot make ${/^[aeiou]/i.test(device) ? 'an' : 'a'} ${device} set. Use the \`mac\` device, or upload ${label} screens (POST /public/v1/apps/{appId}/screens).`,
      { asked: null, supported: 0, fixes: ['device', 'screens'] },
    );
  return new Problem(
    'cannot_fill_set',
    `The listing has no ${family} screenshots for ${/^[aeiou]/i.test(device) ? 'an' : 'a'} ${device} set and the app has no uploaded ${family} screens. Upload screens (POST /public/v1/apps/{appId}/screens), or plan for a device whose screenshots the listing has.`,
    { asked: null, supported: 0, fixes: ['screens'] },
  );
}

/**
 * A named narrative the listing cannot fill. `supported` is counted on that narrative's own slides
 * (its order and roles kept), never on the default story a smaller `count` would give: a count does
 * not apply to a narrative, so the fixes are words (extraContext), the user's own captions, or
 * leaving the story out when the default story fills (`defaultStorySupported` slides).
 */
export function cannotFillNarrative(
  narrative: { id: string; name: string },
  asked: number,
  missing: { slide: number; role: string }[],
  descriptionEmpty: boolean,
  /** The feature the listing does name, and where it went: under the hero, or unsaid in this voice. */
  why: WhyEmpty | null = null,
  /** Slides the default story fills (≤ asked) with captions that say something of the app; 0 when none. */
  defaultStorySupported = 0,
): Problem {
  const supported = asked - missing.length;
  const plain =
    defaultStorySupported >= asked
      ? ` Or leave out narrativeId: the default story fills all ${asked} slides.`
      : defaultStorySupported > 0
        ? ` Or leave out narrativeId and ask for ${slides(defaultStorySupported)}: the default story fills that many.`
        : '';
  const which = `slide${missing.length === 1 ? '' : 's'} ${missing.map((m) => `${m.slide} (${m.role.replace(/-/g, ' ')})`).join(', ')}`;
  const reason =
    why?.under === 'hero'
      ? `it has no line left for ${which}: "${why.phrase}" is said under the hero instead, as a long hero needs a line under it`
      : why?.under === 'again'
        ? `it has no line for ${which} that does not say the hero's words again or only what another line is for ("${why.phrase}")`
        : why?.under === 'voice'
          ? `it has no whole caption in this voice for ${which}: the listing names more ("${why.phrase}"), but this voice could not say it as a caption that passes the checks`
          : why?.under === 'length'
            ? `it has no caption of this length for ${which}: the listing names more ("${why.phrase}"), which passes the checks but runs ${why.chars} characters, over this length's ${why.max}`
            : why?.under === 'story'
              ? `it has no caption left for ${which}: the listing names more ("${why.phrase}"), which passes the checks, but the writer placed it on no slide of this story`
              : `it says nothing that fits ${which}`;
  return new Problem(
    'cannot_fill_set',
    `The listing${descriptionEmpty ? ' (it has no description)' : ''} supports ${supported} of the ${asked} slides of the "${narrative.name}" story with captions that pass the caption checks: ${reason}. Add a few lines about the app as extraContext (POST /public/v1/apps), or write the captions yourself with "slides".${plain}`,
    {
      asked,
      supported,
      narrativeId: narrative.id,
      ...(defaultStorySupported > 0 ? { defaultStorySupported } : {}),
      fixes: defaultStorySupported > 0 ? ['extraContext', 'slides', 'narrativeId'] : ['extraContext', 'slides'],
    },
  );
}

/** Why a story's feature slides are empty: the line went under the hero, or was not said (and why). */
export interface WhyEmpty {
  phrase: string;
  under: 'hero' | 'voice' | 'again' | 'length' | 'story';
  chars?: number;
  max?: number;
}

/**
 * The listing's lines pass every check but this length's characters (second recordings read, 4c:
 * "says too little" was untrue of a listing of five selling lines of 31-46 characters): say so, and
 * name the length whose headlines hold them.
 */
export function cannotFillAtLength(
  asked: number,
  supported: number,
  length: string,
  lines: { min: number; max: number; holds: string; fills: number },
  descriptionEmpty: boolean,
): Problem {
  const run = lines.min === lines.max ? `${lines.min} characters` : `${lines.min}–${lines.max} characters`;
  const limit = CAPTION_LENGTHS[length as CaptionLength]?.headline ?? 30;
  const fills = lines.fills >= asked ? (asked === 1 ? 'the one slide asked' : `all ${asked} slides`) : slides(lines.fills);
  return new Problem(
    'cannot_fill_set',
    `The listing${descriptionEmpty ? ' (it has no description)' : ''} supports ${slides(supported)} with captions that pass the caption checks, not the ${asked} asked for: its other lines pass them but run ${run}, over a ${length} headline's ${limit}. Ask for captionLength "${lines.holds}": its headlines hold them, and it fills ${fills}. Or add a few shorter lines about the app as extraContext (POST /public/v1/apps), write the captions yourself with "slides"${supported > 0 ? ', or ask for fewer slides' : ''}.`,
    {
      asked,
      supported,
      fixes: supported > 0 ? ['captionLength', 'extraContext', 'slides', 'count'] : ['captionLength', 'extraContext', 'slides'],
    },
  );
}

/**
 * The fewer slides the listing could fill would say nothing of this app ("The Best Free App"): a
 * smaller count would give a set worse than none, so it is not offered (`supported` 0).
 */
export function cannotFillButGenerically(asked: number, example: string, descriptionEmpty: boolean): Problem {
  return new Problem(
    'cannot_fill_set',
    `The listing${descriptionEmpty ? ' (it has no description)' : ''} says too little about what the app does for ${asked} slides, and fewer would not help: the only captions it gives ("${example}") say nothing a store visitor learns about this app from. Add a few lines about the app as extraContext (POST /public/v1/apps), or write the captions yourself with "slides".`,
    { asked, supported: 0, fixes: ['extraContext', 'slides'] },
  );
}
