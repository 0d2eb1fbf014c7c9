/**
 * Google OAuth for a service account: the JWT-bearer grant (RFC 7523) posted to the key file's own
 * `token_uri`, signed RS256 with its `private_key`. Done here rather than by google-auth-library
 * so that the endpoint is always the key file's, never a default address the library picks.
 */
import { importPKCS8, SignJWT, type CryptoKey } from 'jose';

export interface ServiceAccountKey {
  type?: string;
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri: string;
  [k: string]: unknown;
}

export const PLAY_SCOPE = 'https://www.googleapis.com/auth/androidpublisher';

export class TokenRejected extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'TokenRejected';
  }
}

export class TokenUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenUnavailable';
  }
}

export async function importServiceAccountKey(pem: string): Promise<CryptoKey> {
  return importPKCS8(pem.trim(), 'RS256');
}

export class GoogleTokens {
  private cached: { token: string; exp: number } | null = null;
  private key: Promise<CryptoKey> | null = null;

  constructor(
    private readonly account: ServiceAccountKey,
    private readonly opts: { timeoutMs?: number; now?: () => number } = {},
  ) {}

  async token(): Promise<string> {
    const nowS = Math.floor((this.opts.now ?? Date.now)() / 1000);
    if (this.cached && this.cached.exp - 120 > nowS) return this.cached.token;
    this.key ??= importServiceAccountKey(this.account.private_key);
    const header: { alg: 'RS256'; typ: 'JWT'; kid?: string } = { alg: 'RS256', typ: 'JWT' };
    if (this.account.private_key_id) header.kid = this.account.private_key_id;
    const assertion = await new SignJWT({ scope: PLAY_SCOPE })
      .setProtectedHeader(header)
      .setIssuer(this.account.client_email)
      .setAudience(this.account.token_uri)
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + 3600)
      .sign(await this.key);
    let res: Response;
    try {
      res = await fetch(this.account.token_uri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
        redirect: 'error',
      });
    } catch (e) {
      throw new TokenUnavailable(`the token endpoint did not answer: ${(e as Error).message}`);
    }
    const text = await res.text();
    if (res.status >= 500 || res.status === 429) throw new TokenUnavailable(`the token endpoint answered ${res.status}`);
    let body: { access_token?: string; expires_in?: number; error?: string; error_description?: string } = {};
    try {
      body = JSON.parse(text);
    } catch {
      // A non-JSON answer is reported by its status below.
    }
    if (!res.ok || !body.access_token) {
      const why = [body.error, body.error_description].filter(Boolean).join(': ') || `status ${res.status}`;
      throw new TokenRejected(res.status, `Google refused the service account's token request (${why}).`);
    }
    this.cached = { token: body.access_token, exp: nowS + (body.expires_in ?? 3600) };
    return body.access_token;
  }

  forget(): void {
    this.cached = null;
  }
}
