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

// Two base32 characters for each 10-bit value: four lookups encode five bytes (40 bits), where
// a character at a time (divisions, eight string concatenations) cost ~1.5 µs an id.
const PAIRS = Array.from({ length: 1024 }, (_, v) => CROCKFORD[v >> 5] + CROCKFORD[v & 31]);

/** The 40 bits of pool[at..at+5] as 8 base32 characters, most significant first. */
function base32x8(at: number): string {
  const [b0, b1, b2, b3, b4] = [pool[at], pool[at + 1], pool[at + 2], pool[at + 3], pool[at + 4]];
  return (
    PAIRS[(b0 << 2) | (b1 >> 6)] + PAIRS[((b1 & 63) << 4) | (b2 >> 4)] + PAIRS[((b2 & 15) << 6) | (b3 >> 2)] + PAIRS[((b3 & 3) << 8) | b4]
  );
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
