/** Ids (request ids on every answer, and every public id): the shape, the time and the randomness. */
import { describe, expect, it } from 'vitest';
import { isId, newId } from '../../src/core/ids.ts';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const decodeTime = (id: string) => [...id.slice(4, 14)].reduce((n, c) => n * 32 + CROCKFORD.indexOf(c), 0);

describe('newId', () => {
  it('is a prefix and 26 Crockford characters whose first ten are the millisecond it was made', () => {
    for (const ms of [0, 1, 1_732_500_000_123, 2 ** 48 - 1]) {
      const id = newId('req', ms);
      expect(isId('req', id)).toBe(true);
      expect(decodeTime(id)).toBe(ms);
    }
    // The time part is remembered per millisecond: a different one is not answered from memory.
    expect(decodeTime(newId('job', 5))).toBe(5);
    expect(decodeTime(newId('job', 6))).toBe(6);
  });

  it('ids of the same millisecond differ, and every random position takes every character', () => {
    const ms = Date.now();
    const ids = Array.from({ length: 4000 }, () => newId('req', ms));
    expect(new Set(ids).size).toBe(ids.length);
    // 80 random bits in 16 characters: a lost or stuck bit would leave some position short of 32 values.
    for (let pos = 14; pos < 30; pos++) expect(new Set(ids.map((id) => id[pos])).size).toBe(32);
  });

  it('sorts by creation across milliseconds', () => {
    const a = newId('acc', 1_000);
    const b = newId('acc', 1_001);
    expect(a < b).toBe(true);
  });
});
