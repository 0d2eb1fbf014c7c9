/**
 * Plans from every recorded store response in ../shared/fixtures/stores (read through the store
 * parsers) and checks the same rules. Skipped, with a note, when the recordings are not there.
 * `npm test` plans each recording on every device in one voice, rotated with the device and the
 * recording (./sample.ts): every recording in every device, voice and length, and five recordings in
 * a row together plan every device × voice. Every device × voice of every recording (45 sets each) took
 * 58 s of a full run; `npm run plan:full` plans them all.
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
import { rotated } from './sample.ts';

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
  it.each(files.map((f, i) => [path.relative(ROOT, f), f, i] as const))('%s', (_name, file, f) => {
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
        if (!rotated(d + f, v, CAPTION_STYLE_IDS.length)) continue;
        // The length rotates with device and voice: both lengths for every recording, and with the
        // whole matrix (plan:full) each length meets every device and every voice.
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
