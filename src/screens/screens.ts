/**
 * The user's own screens: raw app screenshots uploaded per app, framed by the slides of a set.
 * The bytes go to the object store first, then the row: a row never names a missing object.
 */
import { createHash } from 'node:crypto';
import { appNotFound, findApp } from '../apps/apps.ts';
import { transaction, type Db, type Queryable } from '../db/pool.ts';
import { isId, newId } from '../core/ids.ts';
import type { ObjectStore } from '../objects/index.ts';
import { Problem, type FieldError } from '../core/problem.ts';
import { focusError, type Focus } from '../core/set.ts';
import type { ScreenshotFamily } from '../core/listing.ts';
import { decodeScreen } from './decode.ts';
import { inferFamily } from '../core/families.ts';
import { stripMetadata } from './strip.ts';
import type { ScreenReader } from './reader.ts';

export const MAX_SCREENS_PER_APP = 50;

export interface Screen {
  screenId: string;
  family: ScreenshotFamily;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  createdAt: string;
  /** The visible text OCR read from it, line by line; null until read (or when it could not be). */
  text: string[] | null;
}

/** A screen as a job reads it: where its bytes are. */
export interface ScreenObject {
  screenId: string;
  family: ScreenshotFamily;
  objectKey: string;
  /** Pixel size as stored (absent: not read): a set whose screens are all landscape is planned landscape. */
  width?: number;
  height?: number;
}

interface ScreenRow {
  id: string;
  family: ScreenshotFamily;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  object_key: string;
  created_at: Date;
  text: string[] | null;
}

const toScreen = (r: ScreenRow): Screen => ({
  screenId: r.id,
  family: r.family,
  width: r.width,
  height: r.height,
  bytes: r.bytes,
  sha256: r.sha256,
  createdAt: r.created_at.toISOString(),
  text: r.text,
});

export const screenNotFound = (screenId: string) => new Problem('screen_not_found', `No screen ${screenId} of this app.`);

export async function uploadScreen(
  db: Db,
  objects: ObjectStore,
  accountId: string,
  appId: string,
  body: Buffer,
  family?: ScreenshotFamily,
  reader?: ScreenReader | null,
): Promise<Screen> {
  const app = isId('app', appId) ? await findApp(db, accountId, appId) : null;
  if (!app) throw appNotFound(appId);
  const decoded = await decodeScreen(body);
  // What is stored and counted is the stripped image, never the bytes as uploaded; the hash stays
  // the upload's, so that a client recognises the file it sent.
  const stripped = await stripMetadata(body, decoded.contentType);
  const image = { ...decoded, width: stripped.width, height: stripped.height };
  const stored = stripped.bytes;
  const screenId = newId('scr');
  const objectKey = `screens/${accountId}/${screenId}.${image.contentType === 'image/png' ? 'png' : 'jpg'}`;
  const sha256 = createHash('sha256').update(body).digest('hex');
  const chosen = family ?? inferFamily(image.width, image.height, { ios: app.iosListing !== null, android: app.androidListing !== null });
  await objects.put(objectKey, stored, image.contentType);
  let screen: Screen;
  try {
    screen = await transaction(db, async (tx) => {
      // The app row is the lock that makes the count and the insert one step for concurrent uploads.
      await tx.query('SELECT 1 FROM apps WHERE id = $1 AND account_id = $2 FOR UPDATE', [appId, accountId]);
      const { rows: counted } = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM screens WHERE app_id = $1 AND deleted_at IS NULL',
        [appId],
      );
      if (counted[0].n >= MAX_SCREENS_PER_APP) {
        throw new Problem('screen_limit', `This app has ${MAX_SCREENS_PER_APP} screens, the most it may hold; delete one first.`);
      }
      const { rows } = await tx.query<ScreenRow>(
        `INSERT INTO screens (id, account_id, app_id, family, content_type, width, height, bytes, sha256, object_key, text_status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         RETURNING id, family, width, height, bytes, sha256, object_key, created_at, text`,
        [
          screenId,
          accountId,
          appId,
          chosen,
          image.contentType,
          image.width,
          image.height,
          stored.length,
          sha256,
          objectKey,
          reader ? 'pending' : 'none',
        ],
      );
      return toScreen(rows[0]);
    });
  } catch (error) {
    await objects.delete(objectKey).catch(() => undefined);
    throw error;
  }
  // Read after the commit, without waiting: the row is there for the reader to fill. Cached per
  // account: how fast a picture's text appears must not tell one account what another uploaded.
  void reader?.read(screenId, stored, `${accountId}:${sha256}`);
  return screen;
}

export async function listScreens(db: Queryable, accountId: string, appId: string): Promise<Screen[]> {
  if (!isId('app', appId)) throw appNotFound(appId);
  // One query answers both: no row at all is no such app; one row without a screen is none yet.
  const { rows } = await db.query<{ [K in keyof ScreenRow]: ScreenRow[K] | null }>(
    `SELECT s.id, s.family, s.width, s.height, s.bytes, s.sha256, s.object_key, s.created_at, s.text
     FROM apps a LEFT JOIN screens s ON s.app_id = a.id AND s.deleted_at IS NULL
     WHERE a.id = $1 AND a.account_id = $2 ORDER BY s.created_at, s.id`,
    [appId, accountId],
  );
  if (rows.length === 0) throw appNotFound(appId);
  return rows.filter((r): r is ScreenRow => r.id !== null).map(toScreen);
}

/**
 * Sets already rendered keep their own pictures; a set still queued keeps the screen it was given
 * (the row and the bytes stay, marked deleted), so a delete never breaks a paid job.
 */
export async function deleteScreen(db: Queryable, accountId: string, appId: string, screenId: string): Promise<void> {
  if (!isId('app', appId) || !isId('scr', screenId)) throw screenNotFound(screenId);
  const { rowCount } = await db.query(
    'UPDATE screens SET deleted_at = now() WHERE id = $1 AND app_id = $2 AND account_id = $3 AND deleted_at IS NULL',
    [screenId, appId, accountId],
  );
  if (rowCount !== 1) throw screenNotFound(screenId);
}

/** Refuses ids that are not live screens of this app (the request's screenIds and slides). */
export async function checkScreenIds(db: Queryable, accountId: string, appId: string, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const malformed = unique.find((id) => !isId('scr', id));
  if (malformed) throw screenNotFound(malformed);
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM screens WHERE id = ANY($1) AND app_id = $2 AND account_id = $3 AND deleted_at IS NULL',
    [unique, appId, accountId],
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing) throw screenNotFound(missing);
}

/** The pixel size of each named screen of the app (live or not), by id. */
export async function screenSizes(
  db: Queryable,
  accountId: string,
  appId: string,
  ids: string[],
): Promise<Map<string, { width: number; height: number }>> {
  const { rows } = await db.query<{ id: string; width: number; height: number }>(
    'SELECT id, width, height FROM screens WHERE id = ANY($1) AND app_id = $2 AND account_id = $3',
    [[...new Set(ids)], appId, accountId],
  );
  return new Map(rows.map((r) => [r.id, { width: r.width, height: r.height }]));
}

/**
 * Each slide's focus checked against its screen: it needs the slide's own uploaded screen (the
 * region is in that screen's pixels) and must lie within it. `field` names the slide in a refusal.
 */
export async function focusErrors(
  db: Queryable,
  accountId: string,
  appId: string,
  slides: { field: string; focus: Focus; screenId: string | undefined }[],
): Promise<FieldError[]> {
  if (slides.length === 0) return [];
  const sizes = await screenSizes(
    db,
    accountId,
    appId,
    slides.flatMap((s) => (s.screenId ? [s.screenId] : [])),
  );
  return slides.flatMap(({ field, focus, screenId }) => {
    const size = screenId ? sizes.get(screenId) : undefined;
    if (!size)
      return [{ field: `${field}/focus`, message: "needs the slide's own uploaded screen (screenId): the region is in its pixels" }];
    const error = focusError(focus, size);
    return error ? [{ field: `${field}/focus`, message: error }] : [];
  });
}

/** The named screens (deleted ones included: the job was accepted with them), in the given order. */
export async function screenObjects(db: Queryable, accountId: string, appId: string, ids: string[]): Promise<ScreenObject[]> {
  const { rows } = await db.query<{ id: string; family: ScreenshotFamily; object_key: string; width: number; height: number }>(
    'SELECT id, family, object_key, width, height FROM screens WHERE id = ANY($1) AND app_id = $2 AND account_id = $3',
    [ids, appId, accountId],
  );
  const byId = new Map<string, ScreenObject>(
    rows.map((r) => [r.id, { screenId: r.id, family: r.family, objectKey: r.object_key, width: r.width, height: r.height }]),
  );
  return ids.map((id) => byId.get(id)).filter((s): s is ScreenObject => s !== undefined);
}

/** The app's live screens of one family, in upload order: what a set without screenIds frames. */
export async function familyScreens(db: Queryable, accountId: string, appId: string, family: ScreenshotFamily): Promise<ScreenObject[]> {
  // Named: a create without listing screenshots of the family runs this every time; each
  // connection parses and plans it once.
  const { rows } = await db.query<{ id: string; object_key: string; width: number; height: number }>({
    name: 'family-screens-sized',
    text: 'SELECT id, object_key, width, height FROM screens WHERE app_id = $1 AND account_id = $2 AND family = $3 AND deleted_at IS NULL ORDER BY created_at, id',
    values: [appId, accountId, family],
  });
  return rows.map((r) => ({ screenId: r.id, family, objectKey: r.object_key, width: r.width, height: r.height }));
}

export interface ScreenText {
  screenId: string;
  /** null: not read (no reader, still reading past the wait, or failed). */
  text: string[] | null;
}

export interface ScreenTexts {
  screens: ScreenText[];
  /** Screens still being read when the wait ended, and screens whose reading failed. */
  unread: string[];
  failed: string[];
}

/**
 * The text of these screens (a job's), waiting while any is still being read: at most `timeoutMs`
 * (the reader takes ~1 s CPU a screen; a reader that died leaves its screens pending for ever).
 * Polled: the reader may run in another process (the API's), and a poll a quarter second apart
 * costs nothing beside a set's planning.
 */
export async function waitForScreenText(
  db: Queryable,
  accountId: string,
  ids: string[],
  opts: { timeoutMs?: number; pollMs?: number; signal?: AbortSignal } = {},
): Promise<ScreenTexts> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    const { rows } = await db.query<{ id: string; text: string[] | null; text_status: string }>(
      'SELECT id, text, text_status FROM screens WHERE id = ANY($1) AND account_id = $2',
      [ids, accountId],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const pending = rows.filter((r) => r.text_status === 'pending').map((r) => r.id);
    if (pending.length === 0 || Date.now() >= deadline || opts.signal?.aborted) {
      return {
        screens: ids.map((id) => ({ screenId: id, text: byId.get(id)?.text_status === 'read' ? (byId.get(id)?.text ?? []) : null })),
        unread: pending,
        failed: rows.filter((r) => r.text_status === 'failed').map((r) => r.id),
      };
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 250));
  }
}

/**
 * Screens stored before anything read them (`text_status` 'none': uploaded before OCR, or where no
 * reader ran) are read now, once, for the set about to wait for them (waitForScreenText): claimed
 * as 'pending' by one UPDATE, so two sets framing the same screen read it once.
 */
export async function readOlderScreens(
  db: Queryable,
  objects: Pick<ObjectStore, 'get'>,
  reader: Pick<ScreenReader, 'read'>,
  accountId: string,
  ids: string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const { rows } = await db.query<{ id: string; object_key: string; sha256: string }>(
    `UPDATE screens SET text_status = 'pending' WHERE id = ANY($1) AND account_id = $2 AND text_status = 'none'
     RETURNING id, object_key, sha256`,
    [ids, accountId],
  );
  for (const r of rows) {
    void objectBytes(objects, r.object_key).then(
      // The upload's own cache key: the same picture uploaded again is not read twice.
      (bytes) => reader.read(r.id, bytes, `${accountId}:${r.sha256}`),
      () => db.query("UPDATE screens SET text_status = 'failed' WHERE id = $1 AND text_status = 'pending'", [r.id]).catch(() => undefined),
    );
  }
  return rows.length;
}

async function objectBytes(objects: Pick<ObjectStore, 'get'>, key: string): Promise<Uint8Array> {
  const found = await objects.get(key);
  if (!found) throw new Error(`object ${key} is missing`);
  const chunks: Buffer[] = [];
  for await (const c of found.body as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}
