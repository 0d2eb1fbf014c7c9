/**
 * Publications in PostgreSQL: created by the API, advanced by tasks (src/publishing/runner.ts),
 * read back as the public resource. Every read the API makes is scoped to the account.
 */
import { transaction, type Db, type Queryable } from '../db/pool.ts';
import { newId } from '../core/ids.ts';
import { Problem } from '../core/problem.ts';
import type { Item, ItemPatch } from './adapter.ts';
import type { PlannedItem } from './plan.ts';
import type { StoreKind } from './connections.ts';
import { queueDeliveryTasks } from '../tasks/webhook-delivery.ts';
import type { VariantRef, VariantTarget } from './app-store/variants.ts';

export type PublicationStatus = 'planning' | 'awaiting_approval' | 'applying' | 'verifying' | 'published' | 'failed';
const ended = (s: PublicationStatus): boolean => s === 'published' || s === 'failed';

export interface PublicationRow {
  id: string;
  account_id: string;
  job_id: string;
  connection_id: string | null;
  store: StoreKind;
  store_app_id: string;
  locales: Record<string, string>;
  status: PublicationStatus;
  store_fingerprint: string | null;
  edit_id: string | null;
  planned_at: Date | null;
  approved_at: Date | null;
  error: PublicationError | null;
  target: VariantTarget;
  variant: VariantRef | null;
  submission: { reviewSubmissionId: string; submittedAt: string } | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface PublicationError {
  code: string;
  message: string;
  /** The store's own error, when the store refused (App Store Connect's code and detail). */
  storeError?: { code: string; detail: string };
}

interface ItemRow {
  seq: number;
  locale: string;
  slot: string;
  action: Item['action'];
  position: number | null;
  file_name: string | null;
  sha256: string | null;
  md5: string | null;
  bytes: number | null;
  remote_id: string | null;
  state: Item['state'];
  parts_done: number;
  upload: unknown;
  attempts: number;
  error: { message: string } | null;
}

export async function insertPublication(
  db: Queryable,
  p: {
    accountId: string;
    jobId: string;
    connectionId: string;
    store: StoreKind;
    storeAppId: string;
    locales: Record<string, string>;
    target?: VariantTarget;
  },
): Promise<string> {
  const id = newId('pub');
  await db.query(
    `INSERT INTO publications (id, account_id, job_id, connection_id, store, store_app_id, locales, target)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      p.accountId,
      p.jobId,
      p.connectionId,
      p.store,
      p.storeAppId,
      JSON.stringify(p.locales),
      JSON.stringify(p.target ?? { kind: 'product-page' }),
    ],
  );
  return id;
}

export async function loadPublication(db: Queryable, id: string, accountId?: string): Promise<PublicationRow | null> {
  const { rows } = await db.query<PublicationRow>(`SELECT * FROM publications WHERE id = $1 AND ($2::text IS NULL OR account_id = $2)`, [
    id,
    accountId ?? null,
  ]);
  return rows[0] ?? null;
}

export async function loadItems(db: Queryable, id: string): Promise<(Item & { error: string | null })[]> {
  const { rows } = await db.query<ItemRow & { object_key: string | null }>(
    `SELECT i.*, f.object_key FROM publication_items i JOIN publications p ON p.id = i.publication_id
     LEFT JOIN job_files f ON f.job_id = p.job_id AND f.name = i.file_name
     WHERE i.publication_id = $1 ORDER BY i.seq`,
    [id],
  );
  return rows.map((r) => ({
    seq: r.seq,
    locale: r.locale,
    slot: r.slot,
    action: r.action,
    position: r.position,
    file: r.file_name,
    objectKey: r.object_key,
    sha256: r.sha256,
    md5: r.md5,
    bytes: r.bytes,
    remoteId: r.remote_id,
    state: r.state,
    partsDone: r.parts_done,
    upload: r.upload,
    attempts: r.attempts,
    error: r.error?.message ?? null,
  }));
}

export interface NewItem extends PlannedItem {
  locale: string;
  slot: string;
  sha256: string | null;
  md5: string | null;
  bytes: number | null;
}

/** Replaces the plan (a re-plan drops the old one whole) and moves the publication on (never to its end: setStatus). */
export async function savePlan(
  db: Db,
  id: string,
  items: NewItem[],
  fingerprint: string,
  next: Exclude<PublicationStatus, 'published' | 'failed'>,
  now: Date,
): Promise<void> {
  await transaction(db, async (tx) => {
    await tx.query('DELETE FROM publication_items WHERE publication_id = $1', [id]);
    if (items.length)
      await tx.query(
        `INSERT INTO publication_items (publication_id, seq, locale, slot, action, position, file_name, sha256, md5, bytes, remote_id, state)
         SELECT $1, s, l, sl, a, p, f, sh, m, b, r, CASE WHEN a = 'keep' THEN 'done' ELSE 'pending' END
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[], $10::int[], $11::text[])
           AS t(s, l, sl, a, p, f, sh, m, b, r)`,
        [
          id,
          items.map((_, i) => i + 1),
          items.map((i) => i.locale),
          items.map((i) => i.slot),
          items.map((i) => i.action),
          items.map((i) => i.position),
          items.map((i) => i.file),
          items.map((i) => i.sha256),
          items.map((i) => i.md5),
          items.map((i) => i.bytes),
          items.map((i) => i.remoteId),
        ],
      );
    await tx.query(`UPDATE publications SET status = $2, store_fingerprint = $3, planned_at = $4, updated_at = now() WHERE id = $1`, [
      id,
      next,
      fingerprint,
      now,
    ]);
  });
}

export async function saveItem(db: Queryable, id: string, item: Item, patch: ItemPatch): Promise<void> {
  Object.assign(item, Object.fromEntries(Object.entries(patch).filter(([k]) => k !== 'error')));
  await db.query(
    `UPDATE publication_items SET state = $3, remote_id = $4, parts_done = $5, upload = $6, attempts = $7,
       error = CASE WHEN $8::boolean THEN $9::jsonb ELSE error END, updated_at = now()
     WHERE publication_id = $1 AND seq = $2`,
    [
      id,
      item.seq,
      item.state,
      item.remoteId,
      item.partsDone,
      item.upload === null || item.upload === undefined ? null : JSON.stringify(item.upload),
      item.attempts,
      'error' in patch,
      patch.error ? JSON.stringify({ message: patch.error }) : null,
    ],
  );
}

/** What the store gave the publication's variant (page, version, URL; test, treatment), kept for submit and the variants list. */
export async function saveVariant(db: Queryable, id: string, ref: VariantRef): Promise<void> {
  await db.query(`UPDATE publications SET variant = $2, updated_at = now() WHERE id = $1`, [id, JSON.stringify(ref)]);
}

/**
 * Moves a publication on. Its end (published or failed, from a status that was not) writes its
 * event and webhook deliveries (the publications_ended trigger) and queues their tasks, all in
 * one transaction.
 */
export async function setStatus(
  db: Db,
  id: string,
  status: PublicationStatus,
  extra: { error?: PublicationError; editId?: string | null } = {},
): Promise<void> {
  const update = (q: Queryable) =>
    q.query<{ account_id: string; was: PublicationStatus }>(
      `UPDATE publications p SET status = $2, error = COALESCE($3::jsonb, error), edit_id = CASE WHEN $4::boolean THEN $5 ELSE edit_id END,
         finished_at = CASE WHEN $2 IN ('published', 'failed') THEN now() ELSE finished_at END, updated_at = now()
       FROM (SELECT id, status FROM publications WHERE id = $1 FOR UPDATE) old
       WHERE p.id = old.id RETURNING p.account_id, old.status AS was`,
      [id, status, extra.error ? JSON.stringify(extra.error) : null, 'editId' in extra, extra.editId ?? null],
    );
  if (!ended(status)) {
    await update(db);
    return;
  }
  await transaction(db, async (tx) => {
    const moved = (await update(tx)).rows[0];
    if (moved && !ended(moved.was)) await queueDeliveryTasks(tx, { accountId: moved.account_id, publicationId: id });
  });
}

/**
 * Approval: idempotent (approving an approved publication changes nothing); only a publication
 * awaiting approval can move on. Returns whether a task must be queued.
 */
export async function approve(db: Queryable, accountId: string, id: string, now: Date): Promise<boolean> {
  const { rows } = await db.query<{ status: PublicationStatus; moved: boolean }>(
    `WITH moved AS (
       UPDATE publications SET status = 'applying', approved_at = $3, updated_at = now()
       WHERE id = $1 AND account_id = $2 AND status = 'awaiting_approval' RETURNING status)
     SELECT p.status, EXISTS (SELECT 1 FROM moved) AS moved FROM publications p WHERE p.id = $1 AND p.account_id = $2`,
    [id, accountId, now],
  );
  const r = rows[0];
  if (!r) throw new Problem('publication_not_found', `No publication ${id} on this account.`);
  if (r.moved) return true;
  if (r.status === 'planning')
    throw new Problem('publication_not_ready', `Publication ${id} is still planning; approve it once its plan is ready.`);
  return false;
}

export async function viewPublication(db: Queryable, accountId: string, id: string) {
  const p = await loadPublication(db, id, accountId);
  if (!p) return null;
  const items = await loadItems(db, id);
  const count = (a: string) => items.filter((i) => i.action === a).length;
  return {
    id: p.id,
    jobId: p.job_id,
    connectionId: p.connection_id,
    store: p.store,
    storeAppId: p.store_app_id,
    locales: p.locales,
    target: p.target,
    variant: p.variant
      ? {
          pageId: p.variant.pageId ?? null,
          pageVersionId: p.variant.pageVersionId ?? null,
          url: p.variant.url ?? null,
          experimentId: p.variant.experimentId ?? null,
          treatmentId: p.variant.treatmentId ?? null,
        }
      : null,
    submission: p.submission,
    status: p.status,
    plan: {
      upload: count('upload'),
      keep: count('keep'),
      reorder: count('reorder'),
      delete: count('delete'),
      items: items.map((i) => ({
        locale: i.locale,
        slot: i.slot,
        action: i.action,
        position: i.position,
        file: i.file,
        remoteId: i.remoteId,
        state: i.state,
        error: i.error,
      })),
    },
    plannedAt: p.planned_at?.toISOString() ?? null,
    approvedAt: p.approved_at?.toISOString() ?? null,
    error: p.error,
    createdAt: p.created_at.toISOString(),
    finishedAt: p.finished_at?.toISOString() ?? null,
  };
}
