/**
 * Where on the App Store a publication's screenshots go: the localizations that screenshot sets
 * (or library placements) hang from. The product page's are the editable App Store version's of
 * the set's platform (an iPhone or iPad set: the IOS version; a Mac set: the MAC_OS one, which
 * alone takes APP_DESKTOP), which shotgen never creates; a custom product page's and a test treatment's are found or made
 * by the variant surfaces (variants.ts) when the publication is applied.
 */
import type { LocaleTexts } from '../adapter.ts';
import { StoreError } from '../errors.ts';
import { noRetry } from '../../core/retry.ts';
import { retryStoreCall } from '../retry.ts';
import type { AppStoreClient, JsonApiResource } from './client.ts';

export const EDITABLE_STATES = ['PREPARE_FOR_SUBMISSION', 'DEVELOPER_REJECTED', 'REJECTED', 'METADATA_REJECTED'];
/** States of a released version (what a product page optimization test needs). */
const RELEASED = ['READY_FOR_SALE', 'READY_FOR_DISTRIBUTION', 'PREORDER_READY_FOR_SALE'];

export type { LocaleTexts };

export interface Surface {
  /** The relationship from a screenshot set or a placement to the localization, e.g. `appStoreVersionLocalization`. */
  readonly relationship: string;
  /** The localizations' JSON:API type, also their collection path under /v1. */
  readonly type: string;
  /** The store locales a set locale may be mapped to. */
  locales(): Promise<string[]>;
  /** Locale → localization id as the store holds them now; a variant not made yet has none. */
  localizations(): Promise<Map<string, string>>;
  /** Finds or makes the variant and a localization for each locale, every step looked for before it is made. */
  prepare?(locales: LocaleTexts[]): Promise<void>;
}

type Version = JsonApiResource<{ platform?: string; appStoreState?: string; appVersionState?: string; versionString?: string }>;
const stateOf = (v: Version) => v.attributes.appStoreState ?? v.attributes.appVersionState ?? '';

/** An App Store version's platform: an app has one editable version per platform it ships on. */
export type AppStorePlatform = 'IOS' | 'MAC_OS';
/** How a message names a platform. */
export const platformName = (p: AppStorePlatform) => (p === 'MAC_OS' ? 'macOS' : 'iOS');

async function platformVersions(client: AppStoreClient, appId: string, platform: AppStorePlatform): Promise<Version[]> {
  const res = await client.call<{ data: Version[] }>(
    'GET',
    `/v1/apps/${encodeURIComponent(appId)}/appStoreVersions?filter[platform]=${platform}&limit=50`,
    undefined,
    true,
  );
  if (!res) throw new StoreError('refused', `App Store Connect has no app ${appId} for this key`);
  // Checked here too: a store that ignored the filter would hand a Mac set the iOS version.
  return res.data.filter((v) => !v.attributes.platform || v.attributes.platform === platform);
}

async function localesOf(client: AppStoreClient, versionId: string): Promise<Map<string, string>> {
  const res = await client.call<{ data: JsonApiResource<{ locale: string }>[] }>(
    'GET',
    `/v1/appStoreVersions/${versionId}/appStoreVersionLocalizations?limit=50`,
  );
  return new Map((res?.data ?? []).map((l) => [l.attributes.locale, l.id]));
}

/** The app's locales for a variant: its editable version's, else its released version's (a test needs one). */
export async function appLocales(client: AppStoreClient, appId: string, platform: AppStorePlatform = 'IOS'): Promise<string[]> {
  const versions = await platformVersions(client, appId, platform);
  const version =
    versions.find((v) => EDITABLE_STATES.includes(stateOf(v))) ?? versions.find((v) => RELEASED.includes(stateOf(v))) ?? versions[0];
  if (!version) throw new StoreError('refused', `App ${appId} has no ${platformName(platform)} version on App Store Connect`);
  return [...(await localesOf(client, version.id)).keys()];
}

/** The editable App Store version's localizations, of the set's platform: the product page path. */
export class ProductPageSurface implements Surface {
  readonly relationship = 'appStoreVersionLocalization';
  readonly type = 'appStoreVersionLocalizations';
  private cached: Map<string, string> | null = null;

  constructor(
    private readonly client: AppStoreClient,
    private readonly appId: string,
    private readonly platform: AppStorePlatform = 'IOS',
  ) {}

  async locales(): Promise<string[]> {
    return [...(await this.localizations()).keys()];
  }

  async localizations(): Promise<Map<string, string>> {
    if (this.cached) return this.cached;
    const versions = await platformVersions(this.client, this.appId, this.platform);
    const editable = versions.find((v) => EDITABLE_STATES.includes(stateOf(v)));
    if (!versions.length && this.platform === 'MAC_OS')
      throw new StoreError(
        'refused',
        `App ${this.appId} has no macOS version on App Store Connect: a Mac set goes to the app's macOS platform (APP_DESKTOP), which App Store Connect holds apart from iOS. Add macOS to the app in App Store Connect first.`,
      );
    if (!editable) {
      const states = versions.map((v) => `${v.attributes.versionString ?? v.id}: ${stateOf(v)}`);
      throw new StoreError(
        'refused',
        `App ${this.appId} has no ${platformName(this.platform)} version whose screenshots can be edited (${EDITABLE_STATES.join(', ')}); found ${states.join(', ') || 'none'}. Create the next version in App Store Connect first; shotgen never creates one.`,
      );
    }
    this.cached = await localesOf(this.client, editable.id);
    return this.cached;
  }
}

/**
 * Something made at most once though its answer may be lost: looked for first, made with a call
 * that is not retried blindly, and on every retry looked for again. A 409 (the store refusing a
 * duplicate a lost answer made) is answered by what the look finds; any other refusal, or a 409
 * with nothing found (a limit), is the store's answer.
 */
export async function findOrCreate<T>(client: AppStoreClient, find: () => Promise<T | null>, create: () => Promise<T>): Promise<T> {
  const found = await find();
  if (found) return found;
  return retryStoreCall(client.retry, async (n) => {
    const again = n > 1 ? await noRetry(find()) : null;
    if (again) return again;
    try {
      return await create();
    } catch (e) {
      const made = e instanceof StoreError && e.status === 409 ? await noRetry(find()) : null;
      if (!made) throw e;
      return made;
    }
  });
}
