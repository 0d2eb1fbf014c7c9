/**
 * Store connections: an account's App Store Connect API key or Google Play service account. The
 * credentials are tried once against the store before anything is stored, sealed by src/secrets/
 * with the row's id as context, and never leave this module except to an adapter: what a list or
 * an answer shows is only the public half (issuer, key id, client email).
 */
import type { Queryable } from '../db/pool.ts';
import { newId } from '../core/ids.ts';
import { Problem, validationFailed } from '../core/problem.ts';
import type { Keyring } from '../secrets/envelope.ts';
import { requireKeyring } from '../secrets/keys.ts';
import { importAppStoreKey, type AppStoreCredentials } from './app-store/token.ts';
import { importServiceAccountKey, type ServiceAccountKey } from './google-play/token.ts';

export type StoreKind = 'app-store' | 'google-play';

/** How an App Store connection publishes: appScreenshotSets (the default) or the App Asset Library (API 4.5). */
export type AppStoreUpload = 'screenshot-sets' | 'asset-library';
export const APP_STORE_UPLOADS = ['screenshot-sets', 'asset-library'] as const;

export type ConnectionInput =
  | { store: 'app-store'; issuerId: string; keyId: string; privateKey: string; appStoreUpload?: AppStoreUpload }
  | { store: 'google-play'; serviceAccount: Record<string, unknown> };

export interface StoreConnection {
  id: string;
  store: StoreKind;
  issuerId: string | null;
  keyId: string | null;
  clientEmail: string | null;
  /** App Store: how screenshots are put on the store; null on Google Play. */
  appStoreUpload: AppStoreUpload | null;
  createdAt: string;
  lastUsedAt: string | null;
}

export type ConnectionSecret = { store: 'app-store'; creds: AppStoreCredentials } | { store: 'google-play'; account: ServiceAccountKey };

/** One authenticated call that proves the credentials; throws store_credentials_rejected or store_unavailable. */
export type CredentialCheck = (secret: ConnectionSecret) => Promise<void>;

interface Row {
  id: string;
  store: StoreKind;
  issuer_id: string | null;
  key_id: string | null;
  client_email: string | null;
  app_store_upload: AppStoreUpload | null;
  created_at: Date;
  last_used_at: Date | null;
}

const COLUMNS = 'id, store, issuer_id, key_id, client_email, app_store_upload, created_at, last_used_at';
const toConnection = (r: Row): StoreConnection => ({
  id: r.id,
  store: r.store,
  issuerId: r.issuer_id,
  keyId: r.key_id,
  clientEmail: r.client_email,
  appStoreUpload: r.app_store_upload,
  createdAt: r.created_at.toISOString(),
  lastUsedAt: r.last_used_at?.toISOString() ?? null,
});

const context = (id: string) => `store_connections:${id}`;

/** Shape checks that need no store: a key that does not parse is the caller's mistake (400), not the store's. */
export async function checkInput(input: ConnectionInput, allowedTokenOrigins: string[]): Promise<ConnectionSecret> {
  if (input.store === 'app-store') {
    try {
      await importAppStoreKey(input.privateKey);
    } catch {
      throw validationFailed([{ field: 'privateKey', message: 'must be the .p8 file: a PEM "PRIVATE KEY" (PKCS #8) on the P-256 curve' }]);
    }
    return { store: 'app-store', creds: { issuerId: input.issuerId, keyId: input.keyId, privateKey: input.privateKey.trim() } };
  }
  const sa = input.serviceAccount;
  const errors = [];
  for (const f of ['client_email', 'private_key', 'token_uri'] as const)
    if (typeof sa[f] !== 'string' || sa[f] === '')
      errors.push({ field: `serviceAccount/${f}`, message: 'is required (the key file as downloaded)' });
  if (errors.length) throw validationFailed(errors);
  const tokenUri = sa.token_uri as string;
  let origin: string;
  try {
    origin = new URL(tokenUri).origin;
  } catch {
    throw validationFailed([{ field: 'serviceAccount/token_uri', message: 'must be a URL' }]);
  }
  // The token request goes to the key file's address: only https, or the configured API's own
  // origin (a local fake), so a crafted key file cannot aim the server at an internal http service.
  if (!tokenUri.startsWith('https://') && !allowedTokenOrigins.includes(origin))
    throw validationFailed([{ field: 'serviceAccount/token_uri', message: 'must be an https URL' }]);
  try {
    await importServiceAccountKey(sa.private_key as string);
  } catch {
    throw validationFailed([{ field: 'serviceAccount/private_key', message: 'must be an RSA PEM "PRIVATE KEY" as in the key file' }]);
  }
  return { store: 'google-play', account: sa as unknown as ServiceAccountKey };
}

export async function createConnection(
  db: Queryable,
  keyring: Keyring | null,
  accountId: string,
  input: ConnectionInput,
  deps: { check: CredentialCheck; allowedTokenOrigins: string[] },
): Promise<StoreConnection> {
  // Refused before the store is called: without a key nothing could be kept.
  const ring = requireKeyring(keyring);
  const secret = await checkInput(input, deps.allowedTokenOrigins);
  await deps.check(secret);
  const id = newId('sc');
  const plain = secret.store === 'app-store' ? secret.creds.privateKey : JSON.stringify(secret.account);
  const { rows } = await db.query<Row>(
    `INSERT INTO store_connections (id, account_id, store, issuer_id, key_id, client_email, app_store_upload, secret)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [
      id,
      accountId,
      secret.store,
      secret.store === 'app-store' ? secret.creds.issuerId : null,
      secret.store === 'app-store' ? secret.creds.keyId : null,
      secret.store === 'google-play' ? secret.account.client_email : null,
      input.store === 'app-store' ? (input.appStoreUpload ?? 'screenshot-sets') : null,
      ring.seal(plain, context(id)),
    ],
  );
  return toConnection(rows[0]);
}

export async function listConnections(db: Queryable, accountId: string): Promise<StoreConnection[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM store_connections WHERE account_id = $1 ORDER BY created_at, id`, [
    accountId,
  ]);
  return rows.map(toConnection);
}

export async function getConnection(db: Queryable, accountId: string, id: string): Promise<StoreConnection | null> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM store_connections WHERE id = $1 AND account_id = $2`, [id, accountId]);
  return rows[0] ? toConnection(rows[0]) : null;
}

export async function deleteConnection(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const res = await db.query('DELETE FROM store_connections WHERE id = $1 AND account_id = $2', [id, accountId]);
  return res.rowCount === 1;
}

/** The opened secret, for an adapter; marks the connection used. Null when the connection is gone. */
export async function openConnection(
  db: Queryable,
  keyring: Keyring | null,
  accountId: string,
  id: string,
): Promise<(ConnectionSecret & { id: string; appStoreUpload: AppStoreUpload | null }) | null> {
  const { rows } = await db.query<{
    store: StoreKind;
    issuer_id: string | null;
    key_id: string | null;
    app_store_upload: AppStoreUpload | null;
    secret: string;
  }>(
    `UPDATE store_connections SET last_used_at = now() WHERE id = $1 AND account_id = $2
     RETURNING store, issuer_id, key_id, app_store_upload, secret`,
    [id, accountId],
  );
  const r = rows[0];
  if (!r) return null;
  const plain = requireKeyring(keyring).open(r.secret, context(id));
  if (r.store === 'app-store')
    return {
      id,
      store: 'app-store',
      creds: { issuerId: r.issuer_id!, keyId: r.key_id!, privateKey: plain },
      appStoreUpload: r.app_store_upload ?? 'screenshot-sets',
    };
  return { id, store: 'google-play', account: JSON.parse(plain) as ServiceAccountKey, appStoreUpload: null };
}

export const connectionNotFound = (id: string) => new Problem('store_connection_not_found', `No store connection ${id} on this account.`);
