/**
 * What a publication needs from a store, whichever store: its locales, the current images of some
 * slots, and applying a plan's items with every step's result saved before the next call.
 */
import { DEVICES, type Device } from '../core/devices.ts';
import type { Action, Remote } from './plan.ts';

export interface SlotRef {
  locale: string;
  slot: string;
}

export interface SlotState extends SlotRef {
  images: (Remote & { ready: boolean })[];
}

export type ItemState = 'pending' | 'reserved' | 'uploaded' | 'committed' | 'done' | 'failed';

export interface Item extends SlotRef {
  seq: number;
  action: Action;
  position: number | null;
  file: string | null;
  objectKey: string | null;
  sha256: string | null;
  md5: string | null;
  bytes: number | null;
  remoteId: string | null;
  state: ItemState;
  partsDone: number;
  upload: unknown;
  attempts: number;
}

export type ItemPatch = Partial<Pick<Item, 'state' | 'remoteId' | 'partsDone' | 'upload' | 'attempts'>> & { error?: string | null };

export interface ItemIO {
  /** Written to PostgreSQL before it returns: the next store call happens only after. */
  save(item: Item, patch: ItemPatch): Promise<void>;
  bytes(item: Item): Promise<Buffer>;
}

/** A store locale's texts for a variant (custom product pages take both; treatments neither). */
export interface LocaleTexts {
  locale: string;
  promotionalText?: string;
  keywords?: string[];
}

export interface StoreAdapter {
  /** Google Play cannot reorder: an upload goes last. */
  readonly appendOnly: boolean;
  readonly checksum: 'md5' | 'sha256';
  /** The store's locales for this app, or null when any language may be written. */
  locales(): Promise<string[] | null>;
  read(refs: SlotRef[]): Promise<SlotState[]>;
  /**
   * Where the store itself decides the slot from the pictures' sizes (the App Asset Library: the
   * placement group whose reference data takes them): that slot, or a refusal naming the sizes it
   * does not take. Other stores map the device (APP_STORE_DISPLAY_TYPES, PLAY_IMAGE_TYPES).
   */
  slotFor?(images: { locale: string; file: string; width: number; height: number }[]): Promise<string>;
  /**
   * Before the first item is applied (and again on a resumed run, finding what is there): finds or
   * makes the variant the publication targets (a custom product page, a test treatment) with a
   * localization per store locale. The product page needs none.
   */
  prepare?(locales: LocaleTexts[]): Promise<void>;
  /** Runs the items; a slot that fails is reported by its key (`locale/slot`) and does not stop the others. */
  apply(items: Item[], io: ItemIO): Promise<Map<string, Error>>;
}

export const slotKey = (s: SlotRef) => `${s.locale}/${s.slot}`;

/**
 * Apple folded the newer displays into existing screenshotDisplayType values instead of adding
 * new ones: the 6.9" iPhone goes in APP_IPHONE_67, the 13" iPad in APP_IPAD_PRO_3GEN_129, and the
 * 6.3" iPhone (1206×2622, 1179×2556) in APP_IPHONE_61 (fastlane's deliver puts 1179×2556 there
 * too). Every App Store device has its place, so no App Store set is refused for want of one.
 */
export const APP_STORE_DISPLAY_TYPES: Partial<Record<Device, string>> = {
  'iphone-69': 'APP_IPHONE_67',
  'iphone-67': 'APP_IPHONE_67',
  'iphone-63': 'APP_IPHONE_61',
  'iphone-65': 'APP_IPHONE_65',
  'ipad-13': 'APP_IPAD_PRO_3GEN_129',
  'ipad-pro': 'APP_IPAD_PRO_3GEN_129',
  mac: 'APP_DESKTOP',
};

/** The App Store version a device's set goes to: a Mac set only to the app's MAC_OS version. */
export const appStorePlatform = (device: Device): 'IOS' | 'MAC_OS' => (DEVICES[device]?.family === 'mac' ? 'MAC_OS' : 'IOS');

export const PLAY_IMAGE_TYPES: Partial<Record<Device, string>> = {
  'android-phone': 'phoneScreenshots',
  'android-tablet': 'tenInchScreenshots',
};
