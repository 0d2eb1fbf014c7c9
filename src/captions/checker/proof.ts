/**
 * Social proof is the store's own: a rating or a count of raters a caption states must agree with the
 * store's figures ("Rated 5.0 by 100M users" from a description, while the store says 3.5 from 2.8M,
 * is wrong), and a proof slide needs a rating worth quoting: at least MIN_RATINGS of them.
 */
/** Fewer ratings than this prove nothing to a shopper: the store's figure is not quoted. */
export const MIN_RATINGS = 50;
/**
 * A store rating under this reads as a warning, not proof (the renderer's hero badge keeps the same
 * floor, rendering/rating.ts): never led with, and quoted only as a warned last resort (issue 33,
 * seventh held-out read: "3.9 stars! 140 ratings, and we're blushing" was M).
 */
export const MIN_PROOF_RATING = 4;

/** "4.8", "4,8" → 4.8 */
const num = (s: string) => Number(s.replace(',', '.'));
/** "2.8M", "12K+", "1,200" → a count. */
function count(s: string): number {
  const m = /^(\d+(?:[.,]\d+)*)\s*([kmb])?/i.exec(s.trim());
  if (!m) return NaN;
  const unit = { k: 1e3, m: 1e6, b: 1e9 }[(m[2] ?? '').toLowerCase() as 'k' | 'm' | 'b'] ?? 1;
  // "1,200" is twelve hundred; "2.8M" two point eight million.
  const n = m[2] ? num(m[1]) : Number(m[1].replace(/[.,](?=\d{3}\b)/g, ''));
  return n * unit;
}

const RATING = /(\d(?:[.,]\d)?)\s*(?:★|stars?|\/\s*5|out of 5)|\brated\s+(\d(?:[.,]\d)?)\b/giu;
const RATERS =
  /(\d+(?:[.,]\d+)*\s*[kmb]?)\+?\s*(?:\p{L}+\s+)?(users|people|players|downloads|installs|customers|fans|members|ratings|reviews|raters)\b|\b(?:by|from)\s+(?:over\s+)?(\d+(?:[.,]\d+)*\s*[kmb]?)\+?/giu;

export interface StoreFigures {
  rating: number | null;
  ratingCount: number | null;
}

// "12K+ ★", "880 ★": a count of ratings written as a count of stars (a rating is at most 5).
const COUNT_AS_STARS = /(\d+(?:[.,]\d+)*)\s*([kmb])?(\+)?\s*★/giu;
// "4,8 ★ · 7K+": a count with no word for what it counts (not "500+ levels", nor a race's "5K").
const BARE_COUNT = /\d+(?:[.,]\d+)*\s*[kmb]?\+(?!\s*[\p{L}\p{N}★])/iu;

/** Why `text` misreads a count of ratings: written as stars, or with nothing it counts; null when it does not. */
export function misreadCount(text: string): string | null {
  for (const m of text.matchAll(COUNT_AS_STARS))
    if (m[2] || m[3] || (/[.,]\d{3}(?!\d)/.test(m[1]) ? count(m[1]) : num(m[1])) > 5)
      return `writes the count ${m[0].replace(/\s*★$/u, '')} as stars`;
  const bare = BARE_COUNT.exec(text);
  return bare ? `says ${bare[0].trim()} without what it counts` : null;
}

/** Why the rating or count `text` states is one the store's own figures contradict, or null. */
export function contradictedProof(text: string, store: StoreFigures): string | null {
  const misread = misreadCount(text);
  if (misread) return misread;
  if (store.rating !== null && store.rating > 0)
    for (const m of text.matchAll(RATING)) {
      const said = num(m[1] ?? m[2]);
      if (said > 5) continue;
      // The store's figure rounded down to a tenth is what a caption may say (4.68 → 4.6), never more.
      if (said > Math.floor(store.rating * 10) / 10 + 1e-9 || said < store.rating - 0.5)
        return `says ${m[0].trim()}, but the store's rating is ${store.rating.toFixed(1)}`;
    }
  if (store.ratingCount !== null && store.ratingCount > 0 && (RATING.test(text) || /\b(rated|ratings?|reviews?)\b/i.test(text))) {
    RATING.lastIndex = 0;
    for (const m of text.matchAll(RATERS)) {
      const n = count(m[1] ?? m[3]);
      // A count next to a rating is its raters: never more than the store has.
      if (Number.isFinite(n) && n > store.ratingCount) return `says ${m[0].trim()}, but the store counts ${store.ratingCount} ratings`;
    }
  }
  RATING.lastIndex = 0;
  return null;
}

/**
 * Why a slide states its rating twice, headline and subheadline ("4.6 STARS." // "4.6 out of 5 from
 * 91K+ ratings."), or null: the shopper reads the figure once; the second line says something else
 * (how many rated it). A copywriter rejects the echo (read 2026-11-28-second: 6 of 9 proof slides).
 */
export function ratingTwice(headline: string, sub: string | null): string | null {
  if (!sub) return null;
  const ratings = (text: string) => new Set([...text.matchAll(RATING)].map((m) => num(m[1] ?? m[2])).filter((n) => n <= 5));
  const head = ratings(headline);
  const again = [...ratings(sub)].find((n) => head.has(n));
  RATING.lastIndex = 0;
  return again === undefined ? null : `"${sub}" states the rating ${again} that "${headline}" states`;
}
