/**
 * App Store Connect API tokens: ES256 JWTs signed with the team key (.p8), `aud:
 * appstoreconnect-v1`, at most 20 minutes long (Apple refuses longer ones). One is reused until
 * two minutes before it expires, so a publication makes no signature per call.
 */
import { importPKCS8, SignJWT, type CryptoKey } from 'jose';

export interface AppStoreCredentials {
  issuerId: string;
  keyId: string;
  privateKey: string;
}

const LIFETIME_S = 20 * 60;
const MARGIN_S = 120;

export async function importAppStoreKey(pem: string): Promise<CryptoKey> {
  return importPKCS8(pem.trim(), 'ES256');
}

export class AppStoreTokens {
  private cached: { token: string; exp: number } | null = null;
  private key: Promise<CryptoKey> | null = null;

  constructor(
    private readonly creds: AppStoreCredentials,
    private readonly now: () => number = Date.now,
  ) {}

  async token(): Promise<string> {
    const nowS = Math.floor(this.now() / 1000);
    if (this.cached && this.cached.exp - MARGIN_S > nowS) return this.cached.token;
    this.key ??= importAppStoreKey(this.creds.privateKey);
    const exp = nowS + LIFETIME_S;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: this.creds.keyId, typ: 'JWT' })
      .setIssuer(this.creds.issuerId)
      .setAudience('appstoreconnect-v1')
      .setIssuedAt(nowS)
      .setExpirationTime(exp)
      .sign(await this.key);
    this.cached = { token, exp };
    return token;
  }

  /** After a 401: the next call signs a fresh token. */
  forget(): void {
    this.cached = null;
  }
}
