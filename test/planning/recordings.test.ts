/**
 * Plans from every recorded store response in ../shared/fixtures/stores (read through the store
 * parsers) and checks the same rules. Skipped, with a note, when the recordings are not there.
 * `npm test` plans each recording on one device of each family (iPhone, iPad, Mac, Android phone,
 * Android tablet), each family in another voice and the families in both lengths, rotated with the
 * recording (./sample.ts): every recording in every family, voice and length; each device (it takes
 * its family’s turn for two files in a row) in both lengths; five recordings in a row plan every
 * family × voice. Every device × voice of every recording (45 sets each) took 58 s of a full run;
 * one device a family instead of every device took the file from 18.5 to 13.5 s of CPU, alone
 * (2026-11-29, docs/reads/test-time.md). `npm run plan:full` plans them all.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readListing } from '../../scripts/plan.ts';
import { planOrRefuse } from './supported.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type PlanInput, type PlanRequest } from '../../src/core/set.ts';
import { DEVICE_IDS, DEVICES } from '../../src/core/devices.ts';
import { isProblem } from '../../src/core/problem.ts';
import { planViolations } from './check.ts';
import { FULL, rotated } from './sample.ts';

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
const FAMILIES = [...new Set(DEVICE_IDS.map((d) => DEVICES[d].family))];

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
      const k = FAMILIES.indexOf(DEVICES[device].family);
      const members = DEVICE_IDS.filter((x) => DEVICES[x].family === DEVICES[device].family);
      if (!FULL && members[Math.floor(f / 2) % members.length] !== device) continue;
      for (const [v, captionStyle] of CAPTION_STYLE_IDS.entries()) {
        if (!rotated(k + f, v, CAPTION_STYLE_IDS.length)) continue;
        // Sampled, the length alternates with the family and the recording: both lengths for every
        // recording. The whole matrix (plan:full) rotates it with device and voice, so each length
        // meets every device and every voice.
        const captionLength = CAPTION_LENGTH_IDS[(FULL ? d + v : k + f) % CAPTION_LENGTH_IDS.length];
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
