/**
 * Throwaway credentials for the fakes: an App Store Connect API key (a P-256 key as the .p8 PEM
 * Apple hands out, with an issuer id and key id) and a Google service-account JSON key (RSA, its
 * token_uri pointing at the fake). Real formats, so publishing code reads them like real ones.
 */
import { generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';

export interface AppStoreTestKey {
  issuerId: string;
  keyId: string;
  /** PKCS#8 PEM, as in Apple's AuthKey_<keyId>.p8. */
  privateKeyPem: string;
  publicKeyPem: string;
}

export interface ServiceAccountKey {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  auth_uri: string;
  token_uri: string;
  auth_provider_x509_cert_url: string;
  client_x509_cert_url: string;
  universe_domain: string;
}

export function generateAppStoreKey(): AppStoreTestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    issuerId: randomUUID(),
    // Apple's key ids are ten upper-case letters and digits.
    keyId: randomBytes(8).toString('hex').toUpperCase().slice(0, 10),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * A new service account. `pair`: its RSA keys, else new ones (a 2048-bit pair costs 0.15-0.3 CPU-s;
 * tests that make an account per test share one pair, test/support/store-keys.ts).
 */
export function generateServiceAccount(
  tokenUri: string,
  project = 'shotgen-fake',
  pair?: { privateKey: KeyObject; publicKey: KeyObject },
): { key: ServiceAccountKey; publicKeyPem: string } {
  const { privateKey, publicKey } = pair ?? generateKeyPairSync('rsa', { modulusLength: 2048 });
  const name = `publisher-${randomBytes(3).toString('hex')}`;
  const clientEmail = `${name}@${project}.iam.gserviceaccount.com`;
  return {
    key: {
      type: 'service_account',
      project_id: project,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: String(BigInt('0x' + randomBytes(8).toString('hex'))),
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: tokenUri,
      auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
      universe_domain: 'googleapis.com',
    },
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}
