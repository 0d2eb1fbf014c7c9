/** What people read instead of ids: devices, voices, and counts with the right number. */
import { DEVICE_IDS, DEVICES, type Device } from '../core/devices.ts';
import { type CaptionStyle } from '../core/set.ts';

// The device table's own labels: a new device is named where it is defined.
export const DEVICE_NAMES = Object.fromEntries(DEVICE_IDS.map((d) => [d, DEVICES[d].label])) as Record<Device, string>;

export const VOICE_NAMES: Record<CaptionStyle, string> = {
  'aso-expert': 'ASO expert',
  minimal: 'Minimal',
  playful: 'Playful',
  bold: 'Bold',
  professional: 'Professional',
};

export const deviceName = (d: string): string => DEVICE_NAMES[d as Device] ?? d;
export const voiceName = (v: string): string => VOICE_NAMES[v as CaptionStyle] ?? v;

/** "1 slide", "3 slides"; `many` for words whose plural is not word + s. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * A planner's or renderer's message as a dashboard user acts on it: the API calls and fields it
 * names (extraContext, "slides", POST /public/v1/…) are things this user does on the app's page
 * and in the set form instead.
 */
export function forPeople(text: string): string {
  return text
    .replace(/ as extraContext \(POST \/public\/v1\/apps\)/g, " as the app's guidance for the captions, on its page")
    .replace(/ with "slides"/g, ' in the set form')
    .replace(/ \((?:GET|POST|PUT|PATCH|DELETE) \/public\/v1\/[^)]*\)/g, " on the app's page");
}
