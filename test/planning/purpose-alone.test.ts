/**
 * Issue 33, the sixth held-out read (docs/reads/2026-11-28-held-out-sixth.md, pattern 1): a line's
 * purpose ("…to remember the season") said as a slide of its own after its action. In a long set it
 * stands under its action; in a short default set the rating takes its slide; only where no line is
 * left is it a warned slide. Look-alike listings, not the held-out ones.
 */
import { describe, expect, it } from 'vitest';
import { understand } from '../../src/captions/understand.ts';
import { CaptionWriter } from '../../src/captions/rules/writer.ts';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

/** A garden diary whose one line says what its action is for. */
const garden = listingOf({
  name: 'Bloomlog',
  category: 'Lifestyle',
  subtitle: 'Watch your garden grow',
  rating: 4.4,
  ratingCount: 3200,
  description: [
    'Bloomlog keeps your garden diary in one place.',
    '- Log every watering',
    '- Track sunlight for each bed',
    '- Attach a picture to each planting to remember the season',
    '- Get frost alerts',
  ].join('\n'),
});

const PURPOSE = /^(?:[\w ,]*)remember the season[.!]?$/i;

describe('a purpose said as a slide of its own', () => {
  const u = understand([garden], garden, null);
  const feature = u.phrases.find((p) => !p.purposeOf && /^attach a picture to each planting/i.test(p.text));

  it('stands under its action on a long headline-only slide, spent with it', () => {
    expect(feature).toBeDefined();
    for (const tuck of [true, false]) {
      // The lean pass (planning/plan.ts): feature slides stand on their headlines.
      const writer = new CaptionWriter(u, 'bold', 'long', true, 'hero');
      writer.tuckPurposes = tuck;
      writer.caption('hero', 1, 4);
      const slides = [2, 3, 4, 5].map((i) => writer.caption('feature', i, 5 - i));
      const action = slides.find((c) => c?.phrase === feature!.text);
      const alone = slides.filter((c) => c && PURPOSE.test(c.headline));
      if (tuck) {
        expect(action?.subheadline).toMatch(/^remember the season\.$/i);
        expect(alone).toEqual([]);
      } else {
        // The writer's old way, which the planner keeps only where it fills a slide: the purpose alone, warned.
        expect(action?.subheadline ?? null).toBeNull();
        expect(alone[0]?.purpose).toBe(true);
      }
    }
  });

  it('a short default set shows the rating where only the purpose is left', () => {
    for (const style of CAPTION_STYLE_IDS) {
      const set = plan(garden, style, 'short', { count: 5 });
      const heads = (set?.slides ?? []).map((s) => s.headline);
      expect(heads, style).toHaveLength(5);
      expect(
        heads.filter((h) => PURPOSE.test(h)),
        style,
      ).toEqual([]);
    }
  });

  it('no set is refused for it: where nothing else is left, the purpose stays a warned slide', () => {
    for (const style of CAPTION_STYLE_IDS)
      for (const length of ['short', 'long'] as const) {
        const set = plan(garden, style, length, { narrativeId: 'benefits-first' });
        expect(set, `${style}/${length}`).not.toBeNull();
        for (const s of set!.slides)
          if (PURPOSE.test(s.headline)) expect(set!.warnings.some((w) => w.includes('is for, not a feature of its own'))).toBe(true);
      }
  });
});
