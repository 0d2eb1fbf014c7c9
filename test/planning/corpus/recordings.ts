/**
 * The real store recordings in ../shared/fixtures/stores (MANIFEST.md there), read through the store
 * parsers as `npm run plan:read -- --part recordings` reads them: listings no rule was written for.
 * The folder is not part of the repository, so every caller must handle its absence (null).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readListing } from '../../../scripts/plan.ts';
import type { Listing } from '../../../src/core/listing.ts';
import type { Device } from '../../../src/core/devices.ts';
import { isProblem } from '../../../src/core/problem.ts';
import { devicesFor } from './measure.ts';

export const RECORDINGS_ROOT = path.resolve(process.cwd(), '../shared/fixtures/stores');
// The folders that hold one app's store response each (ds-blobs are parts of the details pages).
const DIRS = ['appstore/lookup', 'appstore/derived-lookup', 'googleplay/details', 'googleplay/errors'];

export interface Recording {
  id: string;
  file: string;
  listing: Listing;
}

/** Every recorded response file, or null when the recordings are not on this machine. */
export function recordingFiles(root = RECORDINGS_ROOT): string[] | null {
  if (!existsSync(root)) return null;
  return DIRS.flatMap((dir) =>
    existsSync(path.join(root, dir))
      ? readdirSync(path.join(root, dir))
          .filter((f) => /\.(json|html)$/.test(f))
          .sort()
          .map((f) => path.join(root, dir, f))
      : [],
  );
}

/**
 * The recordings the parsers read as listings, and the ones they refuse as a store would answer
 * (not found, store error): those are the parsers' business, not the caption writer's, so a read
 * lists them apart. A not-found recording planned as a listing would be a parser bug: rethrown.
 */
export function recordings(root = RECORDINGS_ROOT): { listings: Recording[]; refused: { id: string; code: string }[] } | null {
  const files = recordingFiles(root);
  if (!files) return null;
  const listings: Recording[] = [];
  const refused: { id: string; code: string }[] = [];
  for (const file of files) {
    const id = path.basename(file).replace(/\.(json|html)$/, '');
    try {
      listings.push({ id, file, listing: readListing(file) });
    } catch (error) {
      if (!isProblem(error)) throw error;
      refused.push({ id, code: error.code });
    }
  }
  return { listings, refused };
}

/** The device a store visitor of this listing sees: a Mac app's set is a Mac set, never an iPhone one. */
export function recordingDevice(listing: Listing): Device {
  return listing.platform === 'mac' ? 'mac' : devicesFor(listing)[0];
}
