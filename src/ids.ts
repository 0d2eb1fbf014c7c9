/**
 * Public ids: a type prefix and a ULID-style body (48-bit millisecond time + 80 random bits,
 * Crockford base32). Sortable by creation, unguessable, and readable in logs.
 */
import { randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'acc' | 'key' | 'app' | 'job' | 'req' | 'usr' | 'scr' | 'whk';

// Ids are minted on every request (request ids): take random bytes from a pool refilled from the
// CSPRNG, instead of a system call per id.
const pool = Buffer.alloc(4096);
let offset = pool.length;

function random10(): Buffer {
  if (offset + 10 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + 10);
  offset += 10;
  return bytes;
}

export function newId(prefix: IdPrefix, now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = random10();
  let rand = '';
  // 80 bits -> 16 base32 characters, 5 bits at a time.
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      rand += CROCKFORD[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  return `${prefix}_${time}${rand}`;
}

/** Shape check for path parameters: a wrong shape is a 404 without a database round trip. */
export function isId(prefix: IdPrefix, value: string): boolean {
  return (
    value.length === prefix.length + 27 && value.startsWith(`${prefix}_`) && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value.slice(prefix.length + 1))
  );
}
