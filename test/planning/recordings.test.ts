/**
 * Plans from every recorded store response in ../shared/fixtures/stores (read through the store
 * parsers) and checks the same rules. Skipped, with a note, when the recordings are not there.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readListing } from '../../scripts/plan.ts';
import { planOrRefuse } from './supported.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type PlanInput, type PlanRequest } from '../../src/core/set.ts';
import { DEVICE_IDS } from '../../src/core/devices.ts';
import { isProblem } from '../../src/core/problem.ts';
import { planViolations } from './check.ts';

const ROOT = path.resolve(process.cwd(), '../shared/fixtures/stores');
const present = existsSync(ROOT);
const files = present
  ? ['appstore/lookup', 'appstore/derived-lookup', 'googleplay/details'].flatMap((dir) =>
      existsSync(path.join(ROOT, dir))
        ? readdirSync(path.join(ROOT, dir))
            .filter((f) => /\.(json|html)$/.test(f))
            .map((f) => path.join(ROOT, dir, f))
        : [],
    )
  : [];
const SHAPES: Pick<PlanRequest, 'count' | 'narrativeId'>[] = [{ count: 10 }];

if (!present) console.warn(`[planning recordings] ${ROOT} is absent: the recordings tier is skipped.`);

describe.skipIf(!present)('plans from recorded store listings', () => {
  it.each(files.map((f) => [path.relative(ROOT, f), f]))('%s', (_name, file) => {
    let listing;
    try {
      listing = readListing(file);
    } catch (error) {
      // The not-found and error recordings must be refused by the parser, not planned.
      expect(isProblem(error) && ['store_app_not_found', 'store_unavailable'].includes(error.code)).toBe(true);
      expect(path.basename(file)).toMatch(/notfound|error/);
      return;
    }
    const failures: string[] = [];
    for (const [d, device] of DEVICE_IDS.entries()) {
      for (const [v, captionStyle] of CAPTION_STYLE_IDS.entries()) {
        // The length rotates with device and voice: each length still meets every device and every
        // voice, with a third of the plans (every device × voice × length took 120 plans a file).
        const captionLength = CAPTION_LENGTH_IDS[(d + v) % CAPTION_LENGTH_IDS.length];
        for (const shape of SHAPES) {
          const input: PlanInput = {
            listings: [listing],
            extraContext: null,
            request: { device, captionStyle, captionLength, ...shape },
          };
          const result = planOrRefuse(input);
          if (!result) continue;
          for (const violation of planViolations(input, result))
            failures.push(`${device}/${captionStyle}/${captionLength}/${JSON.stringify(shape)}: ${violation}`);
        }
      }
    }
    const story: PlanInput = {
      listings: [listing],
      extraContext: null,
      request: { device: 'iphone-69', narrativeId: 'problem-solution', captionLength: 'long' },
    };
    const told = planOrRefuse(story);
    if (told) failures.push(...planViolations(story, told));
    expect(failures.slice(0, 15)).toEqual([]);
  });
});
