/**
 * Google Play through its own client (@googleapis/androidpublisher, rootUrl from configuration):
 * everything happens in one edit, committed last with ERROR_IF_IN_REVIEW so a review in progress
 * is never cancelled behind the user's back. Play cannot reorder and an upload goes last, so each
 * slot is reconciled against what the edit holds now (images.list, sha256): that makes a resumed
 * or repeated run upload nothing it already uploaded. One edit per package at a time: a
 * PostgreSQL advisory lock, held for the whole run, makes a second publication wait.
 */
import type { androidpublisher_v3 } from '@googleapis/androidpublisher';
import { Readable } from 'node:stream';
import { AbortError } from 'p-retry';
import type { Db } from '../../db/pool.ts';
import { slotKey, type Item, type ItemIO, type SlotRef, type SlotState, type StoreAdapter } from '../adapter.ts';
import { StoreError } from '../errors.ts';
import { noRetry, parseRetryAfter, type RetryPolicy } from '../../core/retry.ts';
import { DEFAULT_RETRY, retryStoreCall } from '../retry.ts';
import { planSlot } from '../plan.ts';
import { setStatus, type PublicationRow } from '../publications.ts';
import { withStoreLock } from '../store-lock.ts';
import { GoogleTokens, TokenRejected, type ServiceAccountKey } from './token.ts';

export interface PlayAdapterOptions {
  rootUrl: string;
  db: Db;
  retry?: RetryPolicy;
  onCall?: (method: string, url: string, status: number) => void;
}

class EditGone extends Error {}

/**
 * Play says the edit "has already been successfully committed" (reason `editAlreadyCommitted`):
 * to a commit sent again after its answer was lost, the work is done. To any other call it is
 * an edit that is gone, as one a run committed before it died.
 */
class EditCommitted extends EditGone {}

interface HttpError {
  status?: number;
  // gaxios answers with node-fetch's Headers, not the global class: read through `get`.
  response?: { status?: number; headers?: Record<string, string> | Pick<Headers, 'get'>; data?: unknown };
  message: string;
}

/**
 * Google's client, loaded by the first call to Play: with googleapis-common and its HTTP stack it
 * is about 0.25 s of CPU to import, which every API and worker process paid at start although only
 * a Play publication uses it (the test suite starts well over a hundred processes).
 */
let loading: Promise<typeof import('@googleapis/androidpublisher')> | null = null;
const googleClient = () => (loading ??= import('@googleapis/androidpublisher'));

export class PlayAdapter implements StoreAdapter {
  readonly appendOnly = true;
  readonly checksum = 'sha256' as const;
  /** Made by the first call() (see googleClient); every use of `api` is inside a call. */
  private client: androidpublisher_v3.Androidpublisher | null = null;
  private readonly tokens: GoogleTokens;
  private readonly retry: RetryPolicy;
  private readonly pkg: string;
  /** The publication's own edit, as saved (publications.edit_id) and as this run changes it. */
  private editId: string | null;

  constructor(
    account: ServiceAccountKey,
    private readonly pub: Pick<PublicationRow, 'id' | 'store_app_id' | 'edit_id'>,
    private readonly opts: PlayAdapterOptions,
  ) {
    this.tokens = new GoogleTokens(account);
    this.retry = opts.retry ?? DEFAULT_RETRY;
    this.pkg = pub.store_app_id;
    this.editId = pub.edit_id;
  }

  private get api(): androidpublisher_v3.Androidpublisher {
    if (!this.client) throw new Error('the Play client is made by call(): use api inside a call');
    return this.client;
  }

  /**
   * The languages of the app's store listings (edits.listings.list). Play makes a listing for any
   * language an image is uploaded to, so a set's `en` written as is would land in a new, empty
   * `en` listing beside the app's `en-US`: the plan maps each set locale to one of these instead.
   */
  async locales(): Promise<string[]> {
    return this.locked(() =>
      this.inThrowawayEdit(async (editId) => {
        const res = await this.call('listings.list', (o) => this.api.edits.listings.list({ packageName: this.pkg, editId }, o));
        return (res.listings ?? []).map((l) => l.language!).filter(Boolean);
      }),
    );
  }

  async read(refs: SlotRef[]): Promise<SlotState[]> {
    return this.locked(() => this.readUnlocked(refs));
  }

  /**
   * The publication's own edit when a read is asked for before it is applied: a run that died
   * before saving any item's progress (an upload whose answer was lost). Google documents that a
   * new edit deletes the earlier ones (the fake refuses it while one is open), so it is dropped
   * first, saying so: nothing in it was recorded, and the run that follows starts a new one.
   */
  private async dropOwnEdit(): Promise<void> {
    const editId = this.editId;
    if (!editId) return;
    await this.call('edits.delete', (o) => this.api.edits.delete({ packageName: this.pkg, editId }, o)).catch((e: unknown) => {
      // Committed, expired or gone already; anything else is for the task's retry.
      if (!(e instanceof EditGone)) throw e;
    });
    await this.opts.db.query('UPDATE publications SET edit_id = NULL, updated_at = now() WHERE id = $1 AND edit_id = $2', [
      this.pub.id,
      editId,
    ]);
    this.editId = null;
  }

  private readUnlocked(refs: SlotRef[]): Promise<SlotState[]> {
    return this.inThrowawayEdit(async (editId) => {
      const out: SlotState[] = [];
      for (const ref of refs) out.push({ ...ref, images: (await this.list(editId, ref)).map((i) => ({ ...i, ready: true })) });
      return out;
    });
  }

  /** Play reads listings and images only inside an edit: one opened for `fn`, deleted after, never committed. */
  private async inThrowawayEdit<T>(fn: (editId: string) => Promise<T>): Promise<T> {
    await this.dropOwnEdit();
    const editId = (await this.call('edits.insert', (o) => this.api.edits.insert({ packageName: this.pkg }, o))).id!;
    try {
      return await fn(editId);
    } finally {
      await this.call('edits.delete', (o) => this.api.edits.delete({ packageName: this.pkg, editId }, o)).catch(() => undefined);
    }
  }

  async apply(items: Item[], io: ItemIO): Promise<Map<string, Error>> {
    return this.locked(async () => {
      const failures = new Map<string, Error>();
      let editId = this.editId;
      if (editId && !(await this.editAlive(editId))) editId = null;
      if (!editId) {
        editId = (await this.call('edits.insert', (o) => this.api.edits.insert({ packageName: this.pkg }, o))).id!;
        await setStatus(this.opts.db, this.pub.id, 'applying', { editId });
      }
      this.editId = editId;
      const bySlot = new Map<string, Item[]>();
      for (const it of items) bySlot.set(slotKey(it), [...(bySlot.get(slotKey(it)) ?? []), it]);
      try {
        for (const [key, slotItems] of bySlot) {
          try {
            await this.applySlot(editId, slotItems, io);
          } catch (e) {
            if (e instanceof EditGone || (e instanceof StoreError && e.kind === 'rejected')) throw e;
            failures.set(key, e as Error);
            for (const it of slotItems) await io.save(it, { error: (e as Error).message });
          }
        }
        if (failures.size) {
          // An edit lands whole: committing it would put the failed slot half-changed on the live
          // listing. Nothing is committed; the edit is dropped and the publication fails.
          throw new StoreError('refused', [...failures].map(([k, e]) => `${k}: ${e.message}`).join('; '));
        }
        try {
          await this.call('edits.commit', (o) =>
            this.api.edits.commit({ packageName: this.pkg, editId: editId!, changesInReviewBehavior: 'ERROR_IF_IN_REVIEW' }, o),
          );
        } catch (e) {
          // A commit retried after its answer was lost is told the edit was committed: it was, and
          // verify reads the listing back. Should Play answer that the edit is gone instead, it was
          // committed if the live listing is what the edit held; otherwise it expired (below).
          if (e instanceof EditGone) this.editId = null;
          if (!(e instanceof EditCommitted) && (!(e instanceof EditGone) || !(await this.liveIs(items)))) throw e;
        }
        this.editId = null;
        for (const it of items) if (it.state !== 'done') await io.save(it, { state: 'done' });
      } catch (e) {
        if (e instanceof EditGone) {
          // Expired (Play's edits last about an hour) or committed by a run that died before saying so:
          // the next run opens a new edit and reconciles against what is live.
          this.editId = null;
          await setStatus(this.opts.db, this.pub.id, 'applying', { editId: null });
          throw new StoreError('unavailable', 'the Play edit expired (or was committed) before this run ended; a new one is started');
        }
        if (e instanceof StoreError && e.kind === 'refused') {
          // Nothing half-applied: the edit is dropped whole, the live listing never changed.
          await this.call('edits.delete', (o) => this.api.edits.delete({ packageName: this.pkg, editId: editId! }, o)).catch(
            () => undefined,
          );
          this.editId = null;
          await setStatus(this.opts.db, this.pub.id, 'applying', { editId: null });
        }
        throw e;
      }
      return failures;
    });
  }

  private async applySlot(editId: string, items: Item[], io: ItemIO): Promise<void> {
    const ref = items[0];
    const wanted = items.filter((i) => i.position !== null).sort((a, b) => a.position! - b.position!);
    const current = await this.list(editId, ref);
    const steps = planSlot(
      wanted.map((i) => ({ file: String(i.seq), checksum: i.sha256! })),
      current,
      { appendOnly: true },
    );
    const deletes = steps.filter((s) => s.action === 'delete');
    const params = { packageName: this.pkg, editId, language: ref.locale, imageType: ref.slot };
    if (deletes.length && deletes.length === current.length)
      await this.call('images.deleteall', (o) => this.api.edits.images.deleteall(params, o));
    else
      for (const d of deletes)
        await this.call('images.delete', (o) => this.api.edits.images.delete({ ...params, imageId: d.remoteId! }, o), true);
    // What the slot holds once the deletes are done; each upload goes after it.
    let held = deletes.length === current.length ? 0 : current.length - deletes.length;
    for (const s of steps.filter((x) => x.action === 'upload')) {
      const it = wanted.find((i) => String(i.seq) === s.file)!;
      const body = await io.bytes(it);
      const id = await this.uploadOnce(editId, ref, held, it.sha256!, () =>
        this.call(
          'images.upload',
          (o) => this.api.edits.images.upload({ ...params, media: { mimeType: 'image/png', body: Readable.from(body) } }, o),
          false,
          true,
        ),
      );
      held++;
      await io.save(it, { remoteId: id, state: 'uploaded' });
    }
  }

  /**
   * An upload is never sent again blindly: a 5xx or a dropped connection may hide one that Play
   * made, and a second would be a duplicate in the edit (and on the listing once committed). Before
   * each retry the slot is listed: an image with this checksum just after the `held` ones is the
   * lost upload, and is adopted.
   */
  private async uploadOnce(
    editId: string,
    ref: SlotRef,
    held: number,
    sha256: string,
    upload: () => Promise<androidpublisher_v3.Schema$ImagesUploadResponse>,
  ): Promise<string | null> {
    return retryStoreCall(this.retry, async (n) => {
      if (n > 1) {
        const now = await noRetry(this.list(editId, ref));
        if (now.length === held + 1 && now[held].checksum === sha256) return now[held].id;
        if (now.length !== held)
          throw new AbortError(
            new StoreError('unavailable', `the ${slotKey(ref)} images of the edit changed while uploading; the run starts over`),
          );
      }
      return (await upload()).image?.id ?? null;
    });
  }

  /** Whether every slot of `items` holds, live, exactly their images in order. */
  private async liveIs(items: Item[]): Promise<boolean> {
    const refs = new Map<string, SlotRef>();
    for (const i of items) refs.set(slotKey(i), { locale: i.locale, slot: i.slot });
    const live = await this.readUnlocked([...refs.values()]);
    return live.every((s) => {
      const want = items
        .filter((i) => slotKey(i) === slotKey(s) && i.position !== null)
        .sort((a, b) => a.position! - b.position!)
        .map((i) => i.sha256);
      return want.length === s.images.length && s.images.every((img, k) => img.checksum === want[k]);
    });
  }

  private async list(editId: string, ref: SlotRef) {
    const res = await this.call('images.list', (o) =>
      this.api.edits.images.list({ packageName: this.pkg, editId, language: ref.locale, imageType: ref.slot }, o),
    );
    return (res.images ?? []).map((i) => ({ id: i.id!, checksum: i.sha256 ?? '' }));
  }

  private async editAlive(editId: string): Promise<boolean> {
    try {
      await this.call('edits.get', (o) => this.api.edits.get({ packageName: this.pkg, editId }, o));
      return true;
    } catch (e) {
      if (e instanceof EditGone) return false;
      throw e;
    }
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    return withStoreLock(
      this.opts.db,
      `play-edit:${this.pkg}`,
      `another publication is editing ${this.pkg} on Google Play; this one waits`,
      fn,
    );
  }

  /** One API call with Play's rules: a fresh token after a 401, 429/5xx retried, an edit's 404 is EditGone. */
  private async call<T>(
    what: string,
    fn: (opts: { headers: Record<string, string>; rootUrl: string }) => Promise<{ data: T; status?: number }>,
    allow404 = false,
    /** A 5xx or no answer is not retried here: the call may have taken effect, and the caller checks first. */
    once = false,
  ): Promise<T> {
    this.client ??= (await googleClient()).androidpublisher({ version: 'v3', rootUrl: `${this.opts.rootUrl}/`, retry: false });
    let reauthorised = false;
    const send = async (): Promise<T> => {
      const token = await noRetry(this.token());
      try {
        const res = await fn({ headers: { Authorization: `Bearer ${token}` }, rootUrl: `${this.opts.rootUrl}/` });
        this.opts.onCall?.(what, this.opts.rootUrl, res.status ?? 200);
        return res.data;
      } catch (e) {
        const err = e as HttpError;
        const status = err.response?.status ?? err.status ?? 0;
        this.opts.onCall?.(what, this.opts.rootUrl, status);
        if (status === 404 && allow404) return {} as T;
        if (status === 401 && !reauthorised) {
          reauthorised = true;
          this.tokens.forget();
          return send();
        }
        throw playError(what, err, status);
      }
    };
    return retryStoreCall(this.retry, send, (e) => !once || e.status === 429);
  }

  /** The token has tries of its own: a token endpoint that failed twice leaves the call its tries. */
  private token(): Promise<string> {
    return retryStoreCall(this.retry, () =>
      this.tokens.token().catch((e: unknown) => {
        if (e instanceof TokenRejected) throw new StoreError('rejected', e.message, e.status);
        throw new StoreError('unavailable', (e as Error).message);
      }),
    );
  }
}

function playError(what: string, err: HttpError, status: number): Error {
  if (status === 401 || status === 403)
    return new StoreError('rejected', `Google Play refused the service account (${status}): ${message(err)}`, status);
  if (reasons(err).includes('editAlreadyCommitted') || /already been (successfully )?committed/i.test(message(err)))
    return new EditCommitted(message(err));
  if ((status === 404 || status === 400) && /edit/i.test(message(err)) && /expired|deleted|not found|no longer valid/i.test(message(err)))
    return new EditGone(message(err));
  if (status === 429 || status >= 500 || status === 0) {
    const h = err.response?.headers;
    const ra = !h ? null : typeof h.get === 'function' ? h.get('retry-after') : ((h as Record<string, string>)['retry-after'] ?? null);
    const wait = status === 429 ? parseRetryAfter(ra) : null;
    return new StoreError('unavailable', `Google Play answered ${status || 'nothing'} to ${what}: ${message(err)}`, status || null, wait);
  }
  return new StoreError('refused', `Google Play refused ${what} (${status}): ${message(err)}`, status);
}

function message(err: HttpError): string {
  const data = err.response?.data as { error?: { message?: string } } | undefined;
  return data?.error?.message ?? err.message;
}

/** The `reason` of each of Google's `error.errors[]`. */
function reasons(err: HttpError): string[] {
  const data = err.response?.data as { error?: { errors?: { reason?: unknown }[] } } | undefined;
  return (data?.error?.errors ?? []).map((e) => String(e.reason ?? ''));
}
