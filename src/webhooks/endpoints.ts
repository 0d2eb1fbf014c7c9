/**
 * Webhook endpoints of an account: created with a signing secret shown once, listed without it,
 * deleted. Every query is scoped by the account, so another account's endpoint is simply absent.
 */
import { transaction, type Db, type Queryable } from '../db/pool.ts';
import { newId } from '../core/ids.ts';
import { Problem, validationFailed } from '../core/problem.ts';
import { isSealed, type Keyring } from '../secrets/envelope.ts';
import { refusedUrl, type UrlRules } from './address-check.ts';
import { newSecret } from './signing.ts';

export const WEBHOOK_EVENTS = ['job.succeeded', 'job.failed', 'publication.published', 'publication.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Enough for staging, production and a few tools; more is usually a leak of forgotten endpoints. */
export const MAX_ENDPOINTS = 10;

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEvent[];
  createdAt: string;
}

interface Row {
  id: string;
  url: string;
  events: WebhookEvent[];
  created_at: Date;
}

const toEndpoint = (r: Row): WebhookEndpoint => ({ id: r.id, url: r.url, events: r.events, createdAt: r.created_at.toISOString() });

/** The AAD a signing secret is sealed under (src/secrets/rotate.ts re-wraps by the same rule). */
const secretContext = (id: string) => `webhook_endpoints:${id}`;

/**
 * The signing secret as kept: sealed with the keyring when there is one. Without one (DATABASE_URL
 * and no SECRETS_KEY) it is kept in clear as before sealing existed, so webhooks go on working
 * where they worked; it is sealed at the first start with a key (sealClearSecrets).
 */
export const storedSecret = (keyring: Keyring | null, id: string, secret: string): string =>
  keyring ? keyring.seal(secret, secretContext(id)) : secret;

/** The signing secret of a stored row, sealed or (kept from before a key was set) clear. */
export function openEndpointSecret(keyring: Keyring | null, id: string, stored: string): string {
  if (!isSealed(stored)) return stored;
  if (!keyring)
    throw new Error(
      `the signing secret of ${id} is sealed and this process has no secrets key (set SECRETS_KEY as on the other processes)`,
    );
  return keyring.open(stored, secretContext(id));
}

export async function createEndpoint(
  db: Db,
  accountId: string,
  input: { url: string; events?: WebhookEvent[] },
  rules: UrlRules,
  keyring: Keyring | null = null,
): Promise<WebhookEndpoint & { secret: string }> {
  const why = refusedUrl(input.url, rules);
  if (why) throw validationFailed([{ field: 'url', message: why }]);
  // Kept in the canonical order, whatever order or repetition the request used.
  const events = WEBHOOK_EVENTS.filter((e) => (input.events ?? WEBHOOK_EVENTS).includes(e));
  if (events.length === 0) throw validationFailed([{ field: 'events', message: 'must name at least one event' }]);
  const secret = newSecret();
  const id = newId('whk');
  return transaction(db, async (tx) => {
    // The account row serialises concurrent creates, so the limit holds under a race.
    await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    const { rows: count } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE account_id = $1', [
      accountId,
    ]);
    if (count[0].n >= MAX_ENDPOINTS) {
      throw new Problem(
        'webhook_limit',
        `This account already has ${MAX_ENDPOINTS} webhook endpoints, the most it may have. Delete one first.`,
      );
    }
    const { rows } = await tx.query<Row>(
      `INSERT INTO webhook_endpoints (id, account_id, url, events, secret) VALUES ($1, $2, $3, $4, $5) RETURNING id, url, events, created_at`,
      [id, accountId, input.url, events, storedSecret(keyring, id, secret)],
    );
    return { ...toEndpoint(rows[0]), secret };
  });
}

/** Oldest first. */
export async function listEndpoints(db: Queryable, accountId: string): Promise<WebhookEndpoint[]> {
  const { rows } = await db.query<Row>(
    'SELECT id, url, events, created_at FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id',
    [accountId],
  );
  return rows.map(toEndpoint);
}

/** False when this account has no such endpoint. */
export async function deleteEndpoint(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const res = await db.query('DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2', [id, accountId]);
  return res.rowCount === 1;
}
