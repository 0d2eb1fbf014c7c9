/**
 * Google's OAuth 2.0 JWT-bearer grant as the fake Play serves it: an RS256 assertion signed with a
 * service account's key, `iss` its client_email, `aud` the token endpoint's own URL, the
 * androidpublisher scope and at most an hour of life, exchanged for an opaque access token that
 * the API checks as a Bearer token.
 */
import { createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { decodeJwt, jwtVerify } from 'jose';
import { FakeError, type FakeRequest, type Reply } from './server.ts';

export const PLAY_SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const TOKEN_LIFETIME_S = 3600;

const invalidGrant = (description: string) => new FakeError(400, 'invalid_grant', description);

/** The token endpoint answers in OAuth's shape, not the API's. */
export const oauthError = (error: FakeError) => ({ error: error.code, error_description: error.message });

export class PlayAuth {
  private readonly accounts = new Map<string, KeyObject>();
  private readonly tokens = new Map<string, { clientEmail: string; expiresAt: number }>();

  constructor(private readonly tokenUri: () => string) {}

  addServiceAccount(clientEmail: string, publicKeyPem: string): void {
    this.accounts.set(clientEmail, createPublicKey(publicKeyPem));
  }

  /** The account's key is gone and every token it was given stops working. */
  removeServiceAccount(clientEmail: string): void {
    this.accounts.delete(clientEmail);
    for (const [token, grant] of this.tokens) if (grant.clientEmail === clientEmail) this.tokens.delete(token);
  }

  async token(req: FakeRequest): Promise<Reply> {
    const type = String(req.headers['content-type'] ?? '');
    const text = req.body.toString('utf8');
    let form: URLSearchParams;
    try {
      form = type.includes('json') ? new URLSearchParams(JSON.parse(text) as Record<string, string>) : new URLSearchParams(text);
    } catch {
      throw new FakeError(400, 'invalid_request', 'The request body could not be read.');
    }
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      throw new FakeError(400, 'unsupported_grant_type', 'Invalid grant_type: ' + (form.get('grant_type') ?? ''));
    const assertion = form.get('assertion') ?? '';
    let iss: string | undefined;
    try {
      iss = decodeJwt(assertion).iss;
    } catch {
      throw invalidGrant('Invalid JWT: the assertion is not a JWT.');
    }
    const key = iss === undefined ? undefined : this.accounts.get(iss);
    if (!key || iss === undefined) throw invalidGrant('Invalid grant: account not found');
    let payload;
    try {
      ({ payload } = await jwtVerify(assertion, key, {
        algorithms: ['RS256'],
        audience: this.tokenUri(),
        issuer: iss,
        requiredClaims: ['exp', 'iat'],
      }));
    } catch (error) {
      throw invalidGrant(`Invalid JWT Signature. (${(error as Error).message})`);
    }
    if ((payload.exp ?? 0) - (payload.iat ?? 0) > TOKEN_LIFETIME_S)
      throw invalidGrant('Invalid JWT: Token must be a short-lived token (60 minutes).');
    const scopes = String(payload.scope ?? '').split(' ');
    if (!scopes.includes(PLAY_SCOPE)) throw invalidGrant(`Invalid JWT: the scope must include ${PLAY_SCOPE}.`);
    const accessToken = `ya29.fake-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(accessToken, { clientEmail: iss, expiresAt: Date.now() + TOKEN_LIFETIME_S * 1000 });
    return { status: 200, json: { access_token: accessToken, expires_in: TOKEN_LIFETIME_S, token_type: 'Bearer' } };
  }

  /** Resolves with the account the Bearer token was given to; rejects with Google's 401. */
  check(authorization: string | undefined): string {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    const grant = token === undefined ? undefined : this.tokens.get(token);
    if (!grant || grant.expiresAt <= Date.now())
      throw new FakeError(
        401,
        'authError',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' },
      );
    return grant.clientEmail;
  }
}
