/**
 * Signed picture URLs: `?expires=<unix seconds>&sig=<HMAC-SHA256>` over the method, the path and
 * the expiry, so a URL in a job's result can be handed to a browser, a CI step or a store upload
 * tool without the API key, for 7 days, and for that one file only.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/pool.ts';
import { isSealed, type Keyring } from '../secrets/envelope.ts';

export const SIGNED_URL_TTL_S = 7 * 24 * 3600;
// Expiries are rounded up to the hour: the URLs of one job stay the same for an hour of polls, so
// a browser's cache of the picture keeps working while every poll still gets a URL valid ≥ 7 days.
const ROUND_S = 3600;

/** The expiry a URL signed at `now` gets: the same for every `now` within one hour. */
export const expiryBucket = (now: Date): number => Math.ceil((now.getTime() / 1000 + SIGNED_URL_TTL_S) / ROUND_S) * ROUND_S;

export class UrlSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(secret, 'utf8');
  }

  private mac(method: string, path: string, expires: number): Buffer {
    return createHmac('sha256', this.key).update(`${method}\n${path}\n${expires}`).digest();
  }

  /** `path?expires=..&sig=..` for a GET, valid at least SIGNED_URL_TTL_S from now. */
  sign(path: string, now: Date): string {
    const expires = expiryBucket(now);
    return `${path}?expires=${expires}&sig=${this.mac('GET', path, expires).toString('base64url')}`;
  }

  /** 'ok', or why not: a URL that was changed in any part, or has expired. */
  verify(method: string, path: string, expires: string, sig: string, now: Date): 'ok' | 'invalid' | 'expired' {
    if (!/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return 'invalid';
    const want = this.mac(method === 'HEAD' ? 'GET' : method, path, Number(expires));
    const got = Buffer.from(sig, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return 'invalid';
    return Number(expires) * 1000 < now.getTime() ? 'expired' : 'ok';
  }
}

/** The AAD of the generated secret: its row, as src/secrets/rotate.ts names it. */
const SIGNING_CONTEXT = 'service_secrets:url_signing';

/**
 * URL_SIGNING_SECRET when the operator set one; otherwise one generated on first start and kept in
 * the database, so every process (and every restart) signs and checks with the same key. Kept
 * sealed with the secrets keyring when there is one (src/secrets/), in clear otherwise (DATABASE_URL
 * and no SECRETS_KEY: signed URLs work there as they did before sealing; sealed at the first start
 * with a key).
 */
export async function loadSigningSecret(db: Queryable, configured: string | null, keyring: Keyring | null = null): Promise<string> {
  if (configured) return configured;
  const fresh = randomBytes(32).toString('base64url');
  const stored = keyring ? keyring.seal(fresh, SIGNING_CONTEXT) : fresh;
  await db.query(`INSERT INTO service_secrets (name, value) VALUES ('url_signing', $1) ON CONFLICT (name) DO NOTHING`, [stored]);
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM service_secrets WHERE name = 'url_signing'`);
  const value = rows[0].value;
  if (!isSealed(value)) return value;
  if (!keyring)
    throw new Error(
      'The URL-signing secret in the database is sealed and this process has no secrets key: set SECRETS_KEY (or URL_SIGNING_SECRET).',
    );
  return keyring.open(value, SIGNING_CONTEXT);
}
