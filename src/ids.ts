/**
 * Public ids: a type prefix and a ULID-style body (48-bit millisecond time + 80 random bits,
 * Crockford base32). Sortable by creation, unguessable, and readable in logs.
 */
import { randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'acc' | 'key' | 'app' | 'job' | 'req' | 'usr' | 'scr' | 'whk' | 'sc' | 'pub';

// Ids are minted on every request (request ids): take random bytes from a pool refilled from the
// CSPRNG, instead of a system call per id.
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** Offset in `pool` of 10 fresh random bytes. */
function random10(): number {
  if (offset + 10 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += 10;
  return offset - 10;
}

/** 40 random bits (5 bytes, exact in a double) as 8 base32 characters. */
function base32x8(at: number): string {
  let n = pool[at] * 2 ** 32 + pool.readUInt32BE(at + 1);
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = CROCKFORD[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}

// The time part changes once a millisecond while ids are minted thousands of times a second.
let lastMs = -1;
let lastTime = '';

function timePart(ms: number): string {
  if (ms === lastMs) return lastTime;
  let time = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  lastMs = ms;
  lastTime = time;
  return time;
}

export function newId(prefix: IdPrefix, now = Date.now()): string {
  const time = timePart(now);
  // 80 random bits -> 16 base32 characters, in two halves of 40 bits.
  const at = random10();
  const rand = base32x8(at) + base32x8(at + 5);
  return `${prefix}_${time}${rand}`;
}

/** Shape check for path parameters: a wrong shape is a 404 without a database round trip. */
export function isId(prefix: IdPrefix, value: string): boolean {
  return (
    value.length === prefix.length + 27 && value.startsWith(`${prefix}_`) && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value.slice(prefix.length + 1))
  );
}
