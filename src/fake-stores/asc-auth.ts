/**
 * App Store Connect's bearer tokens: an ES256 JWT whose `kid` names an API key, `iss` its issuer,
 * `aud` appstoreconnect-v1, and that expires at most 20 minutes ahead. Anything else is 401, as
 * on the real store.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { FakeError } from './server.ts';

/** Apple refuses tokens that live longer than this. */
const MAX_TOKEN_LIFETIME_S = 20 * 60;

interface ApiKey {
  issuerId: string;
  publicKey: KeyObject;
}

const unauthorized = (why: string) =>
  new FakeError(
    401,
    'NOT_AUTHORIZED',
    `Provide a properly configured and signed bearer token, and make sure that it has not expired. (${why})`,
    { 'www-authenticate': 'Bearer' },
  );

/** Apple's documented default: 3600 requests per key per rolling hour. */
const DEFAULT_HOURLY_LIMIT = 3600;
const HOUR_MS = 60 * 60 * 1000;

export class AscKeys {
  private readonly keys = new Map<string, ApiKey>();
  private readonly requests = new Map<string, number[]>();
  hourlyLimit = DEFAULT_HOURLY_LIMIT;

  /**
   * Counts a request against the key's hourly budget and answers the X-Rate-Limit header App Store
   * Connect sends; past the budget the request is refused with 429 instead.
   */
  spend(keyId: string): Record<string, string> {
    const since = Date.now() - HOUR_MS;
    const recent = (this.requests.get(keyId) ?? []).filter((t) => t > since);
    if (recent.length >= this.hourlyLimit) {
      this.requests.set(keyId, recent);
      const retryAfterS = Math.max(1, Math.ceil((recent[0] - since) / 1000));
      throw new FakeError(429, 'RATE_LIMIT_EXCEEDED', 'The API key in use has exceeded the hourly request limit.', {
        'x-rate-limit': `user-hour-lim:${this.hourlyLimit};user-hour-rem:0;`,
        'retry-after': String(retryAfterS),
      });
    }
    recent.push(Date.now());
    this.requests.set(keyId, recent);
    return { 'x-rate-limit': `user-hour-lim:${this.hourlyLimit};user-hour-rem:${this.hourlyLimit - recent.length};` };
  }

  add(issuerId: string, keyId: string, publicKeyPem: string): void {
    this.keys.set(keyId, { issuerId, publicKey: createPublicKey(publicKeyPem) });
  }

  remove(keyId: string): void {
    this.keys.delete(keyId);
  }

  /** Resolves with the key id the token was signed with; rejects with a 401 FakeError. */
  async verify(authorization: string | undefined): Promise<string> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token) throw unauthorized('no bearer token');
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw unauthorized('the token is not a JWT');
    }
    const key = kid === undefined ? undefined : this.keys.get(kid);
    if (!key || kid === undefined) throw unauthorized('unknown key id');
    let exp: number | undefined;
    try {
      const { payload } = await jwtVerify(token, key.publicKey, {
        algorithms: ['ES256'],
        audience: 'appstoreconnect-v1',
        issuer: key.issuerId,
        requiredClaims: ['exp'],
      });
      exp = payload.exp;
    } catch (error) {
      throw unauthorized((error as Error).message);
    }
    if (exp === undefined || exp - Date.now() / 1000 > MAX_TOKEN_LIFETIME_S + 1)
      throw unauthorized('the token expires more than 20 minutes ahead');
    return kid;
  }
}
