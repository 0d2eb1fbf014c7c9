/**
 * Webhook endpoints of an account: created with a signing secret shown once, listed without it,
 * deleted. Every query is scoped by the account, so another account's endpoint is simply absent.
 */
import { transaction, type Db, type Queryable } from '../db/pool.ts';
import { newId } from '../ids.ts';
import { Problem, validationFailed } from '../problem.ts';
import { refusedUrl, type UrlRules } from './address-check.ts';
import { newSecret } from './signing.ts';

export const WEBHOOK_EVENTS = ['job.succeeded', 'job.failed'] as const;
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

export async function createEndpoint(
  db: Db,
  accountId: string,
  input: { url: string; events?: WebhookEvent[] },
  rules: UrlRules,
): Promise<WebhookEndpoint & { secret: string }> {
  const why = refusedUrl(input.url, rules);
  if (why) throw validationFailed([{ field: 'url', message: why }]);
  // Kept in the canonical order, whatever order or repetition the request used.
  const events = WEBHOOK_EVENTS.filter((e) => (input.events ?? WEBHOOK_EVENTS).includes(e));
  if (events.length === 0) throw validationFailed([{ field: 'events', message: 'must name at least one event' }]);
  const secret = newSecret();
  return transaction(db, async (tx) => {
    // The account row serialises concurrent creates, so the limit holds under a race.
    await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    const { rows: count } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE account_id = $1', [
      accountId,
    ]);
    if (count[0].n >= MAX_ENDPOINTS) {
      throw new Problem(
        409,
        'webhook_limit',
        `This account already has ${MAX_ENDPOINTS} webhook endpoints, the most it may have. Delete one first.`,
      );
    }
    const { rows } = await tx.query<Row>(
      `INSERT INTO webhook_endpoints (id, account_id, url, events, secret) VALUES ($1, $2, $3, $4, $5) RETURNING id, url, events, created_at`,
      [newId('whk'), accountId, input.url, events, secret],
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
