/**
 * Two lines that say one thing: a call to action whose subheadline is a second call to action ("Get
 * started with BusyCal." / "Start today with BusyCal."), or a call to action that says the hero's
 * promise again. The shopper reads the set once; the last slide asks, it does not repeat.
 */
import { sameTopic, STOCK, stem, substance } from './complete.ts';
import { contentWords, textKey, words } from '../text.ts';

const ASKS = /^(?:get|start|download|try|install|join|begin|give|go on|grab|your turn)\b/i;

/** Why a call to action's `sub` echoes its `headline`, or null. */
export function secondCall(headline: string, sub: string | null): string | null {
  if (!sub || !ASKS.test(headline.trim()) || !ASKS.test(sub.trim())) return null;
  return `"${sub}" asks again what "${headline}" asks`;
}

/** Why a call to action's words (its topic) say the hero's again, or null. */
export function repeatsHero(cta: Set<string>, hero: Set<string>): string | null {
  return cta.size > 0 && sameTopic(cta, hero, 0.6) ? 'says the hero’s promise again' : null;
}

/**
 * Why `sub` says its headline again in other forms of the same words, or null: every word of a
 * headline of two words or more (an action and its object, a thing and what it is) is in its
 * subheadline, compared by stem: "REPORTS. EXPORTED." over "Export reports to CSV and PDF",
 * "Offline access" over "Access your trips offline". `exclude`: the app's name and category words and
 * the voice's own ("Go ahead,"), which say nothing. The subheadline adds to the headline, it does not say it twice.
 */
export function saysAgain(headline: string, sub: string, language: string, exclude: Set<string>): string | null {
  const head = substance(headline, language, exclude);
  const again = `"${sub}" says its headline’s words again`;
  // One word of substance: its last two words said again inside ("Go ahead, get alerts!" / "Get
  // alerts when…", "NO PRESSURE." / "No timers, no pressure.").
  if (head.size === 1) {
    const tail = textKey(headline).split(' ').slice(-2).join(' ');
    return tail.includes(' ') && ` ${textKey(sub)} `.includes(` ${tail} `) ? again : null;
  }
  if (head.size < 2) return null;
  const under = substance(sub, language, exclude);
  if (![...head].every((w) => under.has(w))) return null;
  // A clause of its own after the restatement says why it matters ("Over 500 hand-made levels, so
  // there's always another to try." under "500 levels, all made by hand!"): a copywriter ships it.
  const clause = CLAUSE.exec(sub);
  if (clause && [...substance(sub.slice(clause.index), language, exclude)].some((w) => !head.has(w))) return null;
  return again;
}

/**
 * Why a hero's `sub` says again a noun phrase of its headline, or null: two content words side by side
 * in both, by stem in English and word for word elsewhere ("Treinos rápidos para fazer em casa. / Treino Já reúne os treinos
 * rápidos que você ama.": "treinos rápidos" twice). The hero may name the app as its subtitle
 * does, so a run of the app's name's words (`appName`) alone is no echo; a content phrase is: the
 * reader counts it D, and the sub has the room to say something new.
 */
export function heroSaysAgain(headline: string, sub: string, language: string, appName: Set<string>): string | null {
  const runs = (text: string): string[] => {
    const key = (w: string) => (language === 'en' ? stem(w) : w);
    const out: string[] = [];
    // Side by side within a clause: punctuation between two words parts them.
    for (const part of text.split(/[,;:.!?()\u2013\u2014]+/u)) {
      let prev: string | null = null;
      for (const w of words(part)) {
        const content = contentWords(w, language).length > 0 ? w : null;
        if (content && prev && !(appName.has(prev) && appName.has(content))) out.push(`${key(prev)} ${key(content)}`);
        prev = content;
      }
    }
    return out;
  };
  const under = new Set(runs(sub));
  const twice = runs(headline).find((r) => under.has(r));
  return twice ? `"${sub}" says its headline’s "${twice}" again` : null;
}

/**
 * Whether a feature headline's action is a stock verb (download, get, discover, explore, try: the
 * words `substance` leaves out) and it names no figure the hero does not: "Download offline maps"
 * under "Offline trail maps" says nothing of its own beside the hero's words, so it restates the hero
 * rather than narrowing it to one of its parts (third held-out read, trailhead). "Discover 500,000
 * trails" names what the hero did not, its figure.
 */
export function stockAction(headline: string, heroText: string): boolean {
  if (!STOCK.has(stockVerb(headline))) return false;
  const figures = (text: string) => text.match(/\d[\d.,]*/g) ?? [];
  const hero = new Set(figures(heroText));
  return figures(headline).every((n) => hero.has(n));
}

/** A headline's first word, the voice's opener ("Go ahead,") aside. */
export const stockVerb = (headline: string): string => words(headline.replace(/^(go ahead|now you can|yes)[,!]?\s+/i, ''))[0] ?? '';

/** Where a subheadline goes on to a clause of its own: a comma or dash, then a linking word. */
const CLAUSE = /[,;:\u2013\u2014]\s*(?:so|because|since|which|while|but|and never|so that)\b/i;

/**
 * Verbs of keeping a record, one verb to a shopper: "Measure your kids" under the hero "Track how
 * your kids grow" says the hero again (held-out read, sprout). A closed group, by stem, for the hero
 * rule only: elsewhere "log" and "track" may each be a feature's own word.
 */
const TRACKING = new Set(['track', 'measure', 'monitor', 'log', 'record'].map(stem));
/**
 * One person named two ways: "See every child's progress" under "Follow how your kids learn" (a
 * held-out read's finding, in other words). A plural the stemmer cannot undo ("children") and its everyday synonym
 * ("kid"); kept this small on purpose, for the hero rule only, like TRACKING.
 */
const KIN: Record<string, string> = { kid: 'child', children: 'child' };
const tracking = (ws: Set<string>): Set<string> => new Set([...ws].map((w) => (TRACKING.has(w) ? 'track' : (KIN[w] ?? w))));

/**
 * A noun made of a verb with "-th" ("growth" of "grow") read as the verb, only when the other side
 * says that verb: "health" is no "heal" unless a line says "heal" too, and then it is the same idea.
 */
const lemmas = (ws: Set<string>, other: Set<string>): Set<string> =>
  new Set([...ws].map((w) => (w.length > 5 && w.endsWith('th') && other.has(w.slice(0, -2)) ? w.slice(0, -2) : w)));

/** The hero as a later slide must not say it again: its headline's words, its whole words, and the rest of its sentence. */
export interface HeroWords {
  headline: Set<string>;
  /** Headline and subheadline, by stem. */
  whole: Set<string>;
  /** The listing sentence its headline was cut from (empty when it says one whole). */
  sentence: Set<string>;
}

/**
 * Why a feature slide's words (`slide`: headline and subheadline by stem, the name and the voice's
 * openers aside) say the hero again, or null: every one is the hero's ("Go ahead, see every plant's
 * progress! / On one simple graph." under a hero whose subheadline says "…see every plant's progress on
 * one simple graph"), or they are the rest of the sentence the hero's headline was cut from and share
 * a word with it ("Climb to the summit" after "Jump, spin and climb" of "Jump, spin and climb to the
 * summit"). The shopper read them on the first slide; the slide's screen deserves its own feature.
 */
export function restatesHero(words: Set<string>, heroWords: HeroWords, otherForms = true): string | null {
  if (words.size === 0) return null;
  // `otherForms` false: the words as written (stem and TRACKING), to tell a plain restatement from one
  // in other forms, which the checker finds soft (a warned last resort, not a refusal).
  const kin = (ws: Set<string>) => (otherForms ? tracking(ws) : new Set([...ws].map((w) => (TRACKING.has(w) ? 'track' : w))));
  const all = kin(new Set([...heroWords.whole, ...heroWords.sentence]));
  const slide = otherForms ? lemmas(kin(words), all) : kin(words);
  const mine = (ws: Set<string>) => (otherForms ? lemmas(kin(ws), slide) : kin(ws));
  const hero = { headline: mine(heroWords.headline), whole: mine(heroWords.whole), sentence: mine(heroWords.sentence) };
  if ([...slide].every((w) => hero.whole.has(w))) return 'says the hero’s words again';
  if (
    hero.sentence.size > 0 &&
    [...slide].every((w) => hero.sentence.has(w) || hero.whole.has(w)) &&
    [...slide].some((w) => hero.headline.has(w))
  )
    return 'says the rest of the hero’s sentence';
  return null;
}

/**
 * Why `sub` opens on the word its headline closes on, or null: "JUMP, SPIN AND CLIMB. // Climb
 * every peak…", "Smart reminders / Reminders that adapt". Read aloud, the seam stutters,
 * on the hero as on any slide. By stem in English; the app's name (`exclude`) may close a call to
 * action and open its line ("Get Podnest / Podnest finds…"): a name is no word said twice.
 */
export function seamEcho(headline: string, sub: string, language: string, exclude: Set<string>): string | null {
  const key = (w: string) => (language === 'en' ? stem(w) : w);
  const last = contentWords(headline, language).pop();
  const first = words(sub)[0];
  if (!last || !first || exclude.has(last) || exclude.has(first) || key(last) !== key(first)) return null;
  return `"${sub}" opens on "${first}", the word its headline closes on`;
}
