/**
 * `npm run plan:read -- --part recordings` samples the real store recordings (./corpus/recordings.ts):
 * every listing file must parse, the not-found and error ones must be refused by the parser, and
 * each listing must give a request the planner answers (a set or a fair cannot_fill_set). Skipped,
 * with a note, when ../shared/fixtures/stores is not on this machine.
 */
import { describe, expect, it } from 'vitest';
import { recordingDevice, recordings, RECORDINGS_ROOT } from './corpus/recordings.ts';
import { planOrRefuse } from './supported.ts';

const recorded = recordings();
if (!recorded) console.warn(`[plan:read recordings] ${RECORDINGS_ROOT} is absent: the recordings part is skipped.`);

describe.skipIf(!recorded)('plan:read --part recordings', () => {
  it('reads every listing recording and refuses only the not-found and error ones', () => {
    expect(recorded!.listings.length).toBeGreaterThan(0);
    for (const r of recorded!.refused) {
      expect(r.id).toMatch(/notfound|error/);
      expect(['store_app_not_found', 'store_unavailable']).toContain(r.code);
    }
    for (const r of recorded!.listings) expect(r.id).not.toMatch(/notfound|error/);
  });

  it('plans a request from every recorded listing on a device its store takes', () => {
    let made = 0;
    for (const r of recorded!.listings) {
      const device = recordingDevice(r.listing);
      if (r.listing.platform === 'mac') expect(device).toBe('mac');
      if (r.listing.store === 'google-play') expect(device).toMatch(/^android-/);
      const set = planOrRefuse({ listings: [r.listing], extraContext: null, request: { device, count: 3 } });
      if (set) {
        made++;
        expect(set.slides.length).toBe(3);
        expect(set.device).toBe(device);
      }
    }
    // A read with nothing made would read nothing: most recordings say enough for three slides.
    expect(made).toBeGreaterThan(recorded!.listings.length / 2);
  });
});
