/**
 * One publication's steps, each safe to run again: plan (read the store, write the plan), apply
 * (the items not done yet, each step saved before the next), verify (read the store back). A task
 * (src/tasks/) calls advancePublication; whatever killed the previous run, the next one continues
 * from what PostgreSQL holds.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/pool.ts';
import type { ObjectStore } from '../objects/index.ts';
import type { Keyring } from '../secrets/envelope.ts';
import {
  APP_STORE_DISPLAY_TYPES,
  appStorePlatform,
  PLAY_IMAGE_TYPES,
  slotKey,
  type Item,
  type LocaleTexts,
  type SlotRef,
  type SlotState,
  type StoreAdapter,
} from './adapter.ts';
import { AppStoreAdapter, type AppStoreAdapterOptions } from './app-store/adapter.ts';
import { AssetLibraryAdapter, pngSize } from './app-store/asset-library.ts';
import { AppStoreClient } from './app-store/client.ts';
import { variantSurface, type VariantTarget } from './app-store/variants.ts';
import { ProductPageSurface } from './app-store/surfaces.ts';
import { openConnection } from './connections.ts';
import { StoreBusy, StoreError } from './errors.ts';
import { PlayAdapter, type PlayAdapterOptions } from './google-play/adapter.ts';
import { jobDevice, loadJobImages, readObject, type JobImage, type JobImages } from './job-images.ts';
import { planSlot } from './plan.ts';
import {
  loadItems,
  loadPublication,
  saveItem,
  savePlan,
  saveVariant,
  setStatus,
  type NewItem,
  type PublicationRow,
} from './publications.ts';
import type { RetryPolicy } from '../core/retry.ts';

export interface RunnerDeps {
  db: Db;
  objects: ObjectStore;
  keyring: Keyring | null;
  appStoreConnectUrl: string;
  googlePlayApiUrl: string;
  retry?: RetryPolicy;
  appStore?: AppStoreAdapterOptions;
  play?: PlayAdapterOptions;
  now?: () => Date;
  /** Every HTTP call to a store (the calls-per-image figures). */
  onCall?: (method: string, url: string, status: number) => void;
}

/** The step failed in a way a later run may not (5xx, 429, timeouts): the task retries it. */
export class RetryLater extends Error {
  override name = 'RetryLater';
}

/**
 * The step must wait `delayMs` (the store's request budget is nearly spent): the task queues the
 * next run that much later, and this one counts as neither a failure nor a retry.
 */
export class Deferred extends Error {
  override name = 'Deferred';
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

export const PLAN_MAX_AGE_MS = 60 * 60_000;

export async function advancePublication(deps: RunnerDeps, id: string, opts: { lastAttempt?: boolean } = {}): Promise<void> {
  const pub = await loadPublication(deps.db, id);
  if (!pub || pub.status === 'published' || pub.status === 'failed' || pub.status === 'awaiting_approval') return;
  try {
    const adapter = await adapterFor(deps, pub);
    if (pub.status === 'planning') return await plan(deps, pub, adapter, 'awaiting_approval');
    if (pub.status === 'applying') await apply(deps, pub, adapter, opts.lastAttempt ?? true);
    await verify(deps, pub, adapter);
  } catch (e) {
    if (e instanceof StoreBusy) throw new Deferred(e.message, e.retryAfterMs);
    if (e instanceof StoreError && e.kind === 'unavailable' && !opts.lastAttempt) throw new RetryLater(e.message);
    if (e instanceof RetryLater && !opts.lastAttempt) throw e;
    const code =
      e instanceof StoreError
        ? e.kind === 'rejected'
          ? 'store_credentials_rejected'
          : e.kind === 'unavailable'
            ? 'store_unavailable'
            : 'store_refused'
        : 'internal_error';
    const message =
      e instanceof StoreError || e instanceof RetryLater || e instanceof PublicationFailed ? e.message : 'Publishing failed unexpectedly.';
    // The store's own code and text, for a refusal the user looks up (a page limit, a fourth treatment…).
    const storeError = e instanceof StoreError && e.storeError ? { storeError: e.storeError } : {};
    await setStatus(deps.db, id, 'failed', { error: { code: e instanceof PublicationFailed ? e.code : code, message, ...storeError } });
    if (code === 'internal_error' && !(e instanceof PublicationFailed)) throw e;
  }
}

class PublicationFailed extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function adapterFor(deps: RunnerDeps, pub: PublicationRow): Promise<StoreAdapter> {
  const secret = pub.connection_id ? await openConnection(deps.db, deps.keyring, pub.account_id, pub.connection_id) : null;
  if (!secret) throw new PublicationFailed('store_connection_not_found', 'The store connection was deleted.');
  if (secret.store === 'app-store') {
    const client = new AppStoreClient(secret.creds, {
      baseUrl: deps.appStoreConnectUrl,
      retry: deps.retry,
      onCall: deps.onCall,
      budgetReserve: deps.appStore?.budgetReserve,
    });
    // The product page (the version of the set's platform: a Mac set's is MAC_OS), or the custom
    // product page or test treatment the publication targets.
    const surface =
      variantSurface(client, pub.store_app_id, pub.target, (ref) => saveVariant(deps.db, pub.id, ref)) ??
      new ProductPageSurface(client, pub.store_app_id, appStorePlatform(await jobDevice(deps.db, pub.job_id)));
    // Chosen per connection: the App Asset Library (API 4.5) or the screenshot sets.
    if (secret.appStoreUpload === 'asset-library')
      return new AssetLibraryAdapter(client, pub.store_app_id, deps.db, deps.appStore, surface);
    return new AppStoreAdapter(client, pub.store_app_id, pub.id, deps.db, deps.appStore, surface);
  }
  return new PlayAdapter(secret.account, pub, {
    rootUrl: deps.googlePlayApiUrl,
    db: deps.db,
    retry: deps.retry,
    onCall: deps.onCall,
    ...deps.play,
  });
}

/** Languages a store names by another code: Play's Hebrew listing is `iw-IL`; Norwegian is `no` on both stores, `nb` in a set. */
const SAME_LANGUAGE: Record<string, string> = { iw: 'he', nb: 'no' };
const language = (locale: string) => {
  const lang = locale.split(/[-_]/)[0].toLowerCase();
  return SAME_LANGUAGE[lang] ?? lang;
};
const sameLocale = (a: string, b: string) => a.replace(/_/g, '-').toLowerCase() === b.replace(/_/g, '-').toLowerCase();

/**
 * A set locale's store locale: the store's of the same name, else its first of the same language
 * (a set's `en` or `en-GB` goes to the app's `en-US` when that is its English one). Null when the
 * store has none of that language; `storeLocales` null takes any locale as it is.
 */
export function resolveLocale(setLocale: string, storeLocales: string[] | null): string | null {
  if (storeLocales === null) return setLocale;
  return storeLocales.find((l) => sameLocale(l, setLocale)) ?? storeLocales.find((l) => language(l) === language(setLocale)) ?? null;
}

const fingerprint = (state: SlotState[]) =>
  createHash('sha256')
    .update(JSON.stringify(state.map((s) => [slotKey(s), s.images.map((i) => [i.id, i.checksum])])))
    .digest('hex');

async function plan(deps: RunnerDeps, pub: PublicationRow, adapter: StoreAdapter, next: 'awaiting_approval' | 'applying'): Promise<void> {
  const images = await loadJobImages(deps.db, deps.objects, pub.account_id, pub.job_id);
  const slot = adapter.slotFor
    ? await adapter.slotFor(await imageSizes(deps.objects, images))
    : (pub.store === 'app-store' ? APP_STORE_DISPLAY_TYPES : PLAY_IMAGE_TYPES)[images.device];
  if (!slot) throw new PublicationFailed('store_refused', `A ${images.device} set has no place on ${pub.store}.`);
  // The stores' own limits, refused before anything is read or written.
  const most = pub.store === 'app-store' ? 10 : 8;
  for (const [locale, set] of images.sets)
    if (set.length > most)
      throw new PublicationFailed(
        'store_refused',
        `${pub.store} takes at most ${most} ${slot} per locale; the ${locale} set has ${set.length}.`,
      );
  const storeLocales = await adapter.locales();
  const wanted = Object.keys(pub.locales).length ? Object.keys(pub.locales) : [...images.sets.keys()];
  const mapping: Record<string, string> = {};
  for (const setLocale of wanted) {
    if (!images.sets.has(setLocale))
      throw new PublicationFailed('store_refused', `The set has no locale ${setLocale}; it has ${[...images.sets.keys()].join(', ')}.`);
    const storeLocale = pub.locales[setLocale] ?? resolveLocale(setLocale, storeLocales);
    if (!storeLocale || (storeLocales && !storeLocales.includes(storeLocale)))
      throw new PublicationFailed(
        'store_refused',
        `The store has no localization for ${pub.locales[setLocale] ?? setLocale} (it has ${storeLocales?.join(', ')}); name one in locales, or add it in the store first.`,
      );
    // Two set locales in one store locale (`en-GB` and `en-AU` for an app with `en-US` only) would
    // each replace the other's slides: the user picks which one goes there.
    const twin = Object.keys(mapping).find((other) => mapping[other] === storeLocale);
    if (twin)
      throw new PublicationFailed(
        'store_refused',
        `The set's ${twin} and ${setLocale} would both go to the store's ${storeLocale}; choose one in locales (e.g. {"${twin}": "${storeLocale}"}).`,
      );
    mapping[setLocale] = storeLocale;
  }
  // Each slot with what it must hold: the set's slides per locale, and on Play each locale's
  // feature graphic where the set has one (the store keeps one a language).
  const wantedSlots: { ref: SlotRef; desired: JobImage[] }[] = Object.entries(mapping).flatMap(([setLocale, locale]) => {
    const graphic = pub.store === 'google-play' ? images.featureGraphics.get(setLocale) : undefined;
    return [
      { ref: { locale, slot }, desired: images.sets.get(setLocale)! },
      ...(graphic ? [{ ref: { locale, slot: 'featureGraphic' }, desired: [graphic] }] : []),
    ];
  });
  const refs: SlotRef[] = wantedSlots.map((w) => w.ref);
  const state = await adapter.read(refs);
  const items: NewItem[] = [];
  for (const { ref, desired } of wantedSlots) {
    const storeLocale = ref.locale;
    const current = state.find((s) => slotKey(s) === slotKey(ref))!;
    const checksum = (i: (typeof desired)[number]) => (adapter.checksum === 'md5' ? i.md5 : i.sha256);
    const planned = planSlot(
      desired.map((i) => ({ file: i.file, checksum: checksum(i) })),
      current.images,
      { appendOnly: adapter.appendOnly },
    );
    for (const p of planned) {
      const img = p.file ? desired.find((i) => i.file === p.file)! : null;
      items.push({
        ...p,
        locale: storeLocale,
        slot: ref.slot,
        sha256: img?.sha256 ?? null,
        md5: img?.md5 ?? null,
        bytes: img?.bytes ?? null,
      });
    }
  }
  await deps.db.query('UPDATE publications SET locales = $2 WHERE id = $1', [pub.id, JSON.stringify(mapping)]);
  await savePlan(deps.db, pub.id, items, fingerprint(state), next, (deps.now ?? (() => new Date()))());
}

/** Each slide's pixel size, read from its PNG header, for a store that checks sizes itself. */
async function imageSizes(objects: ObjectStore, images: JobImages) {
  const out: { locale: string; file: string; width: number; height: number }[] = [];
  for (const [locale, set] of images.sets)
    for (const i of set) {
      const obj = await objects.get(i.objectKey);
      let head = Buffer.alloc(0);
      if (obj)
        for await (const c of obj.body) {
          head = Buffer.concat([head, c as Buffer]);
          if (head.length >= 24) break;
        }
      const size = pngSize(head);
      if (!size) throw new PublicationFailed('store_refused', `${i.file} is not a PNG.`);
      out.push({ locale, file: i.file, ...size });
    }
  return out;
}

async function apply(deps: RunnerDeps, pub: PublicationRow, adapter: StoreAdapter, lastAttempt: boolean): Promise<void> {
  let items = await loadItems(deps.db, pub.id);
  // A variant (custom product page, test treatment) is found or made first; on a resumed run this
  // finds what the earlier one made. A new page version that starts as a copy of the approved one
  // changes what the slots hold, which the check below turns into a new plan.
  await adapter.prepare?.(localeTexts(pub.target, pub.locales, uniqueRefs(items)));
  const untouched = items.every((i) => i.action === 'keep' || (i.state === 'pending' && i.attempts === 0));
  if (untouched) {
    // Approved but not begun: a stale plan, or a store someone changed since, is planned again first.
    const now = (deps.now ?? (() => new Date()))().getTime();
    const old = !pub.planned_at || now - pub.planned_at.getTime() > PLAN_MAX_AGE_MS;
    const refs = uniqueRefs(items);
    const changed = !old && fingerprint(await adapter.read(refs)) !== pub.store_fingerprint;
    if (old || changed) {
      await plan(deps, pub, adapter, 'applying');
      items = await loadItems(deps.db, pub.id);
    }
  }
  // Whole slots: a slot's order is set from all its items, kept ones included.
  const open = new Set(items.filter((i) => i.state !== 'done').map(slotKey));
  const todo = items.filter((i) => open.has(slotKey(i)));
  const failures = await adapter.apply(todo, {
    save: (item, patch) => saveItem(deps.db, pub.id, item, patch),
    bytes: (item: Item) => readObject(deps.objects, item.objectKey!),
  });
  const retryable = [...failures.values()].some((e) => e instanceof StoreError && e.kind === 'unavailable');
  if (retryable && !lastAttempt) throw new RetryLater([...failures.values()].map((e) => e.message).join('; '));
  await setStatus(deps.db, pub.id, 'verifying');
  if (failures.size) {
    // The other slots are verified still; the publication fails naming the slots that did not make it.
    const { differences } = await compare(deps, pub, adapter, new Set(failures.keys()));
    const why = [...failures].map(([k, e]) => `${k}: ${e.message}`);
    throw new PublicationFailed('store_refused', [...why, ...differences].join('; '));
  }
}

/**
 * Each store locale with the target's texts for it: named by the store locale itself, else by the
 * set locale mapped to it, else by one of its language.
 */
export function localeTexts(target: VariantTarget, mapping: Record<string, string>, refs: SlotRef[]): LocaleTexts[] {
  const locales = [...new Set(refs.map((r) => r.locale))];
  if (target.kind !== 'custom-product-page') return locales.map((locale) => ({ locale }));
  const lang = (l: string) => l.split(/[-_]/)[0].toLowerCase();
  const pick = <T>(byLocale: Record<string, T> | undefined, locale: string): T | undefined => {
    if (!byLocale) return undefined;
    const keys = Object.keys(byLocale);
    const key = keys.find((k) => k === locale) ?? keys.find((k) => mapping[k] === locale) ?? keys.find((k) => lang(k) === lang(locale));
    return key === undefined ? undefined : byLocale[key];
  };
  return locales.map((locale) => ({
    locale,
    promotionalText: pick(target.promotionalText, locale),
    keywords: pick(target.keywords, locale),
  }));
}

function uniqueRefs(items: Pick<Item, 'locale' | 'slot'>[]): SlotRef[] {
  const seen = new Map<string, SlotRef>();
  for (const i of items) seen.set(slotKey(i), { locale: i.locale, slot: i.slot });
  return [...seen.values()];
}

async function compare(deps: RunnerDeps, pub: PublicationRow, adapter: StoreAdapter, skip: Set<string> = new Set()) {
  const items = await loadItems(deps.db, pub.id);
  const refs = uniqueRefs(items).filter((r) => !skip.has(slotKey(r)));
  const state = await adapter.read(refs);
  const differences: string[] = [];
  for (const s of state) {
    const expected = items
      .filter((i) => slotKey(i) === slotKey(s) && i.position !== null)
      .sort((a, b) => a.position! - b.position!)
      .map((i) => (adapter.checksum === 'md5' ? i.md5 : i.sha256));
    const actual = s.images.map((i) => i.checksum);
    if (actual.length !== expected.length)
      differences.push(`${slotKey(s)}: the store holds ${actual.length} images, the set ${expected.length}`);
    else if (actual.some((c, i) => c !== expected[i])) differences.push(`${slotKey(s)}: the store's order or images differ from the set`);
    else if (s.images.some((i) => !i.ready)) differences.push(`${slotKey(s)}: not every image finished processing`);
  }
  return { differences };
}

async function verify(deps: RunnerDeps, pub: PublicationRow, adapter: StoreAdapter): Promise<void> {
  const { differences } = await compare(deps, pub, adapter);
  if (differences.length)
    throw new PublicationFailed('publication_mismatch', `Verify found the store not as planned: ${differences.join('; ')}`);
  await setStatus(deps.db, pub.id, 'published');
}
