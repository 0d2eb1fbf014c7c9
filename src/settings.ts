/**
 * The kinds of setting an environment variable can hold, as zod schemas from the raw string (or
 * its absence) to the value: src/config.ts lists every setting once with one of these. Each
 * reports its own problem, so one start names every bad setting instead of the first.
 */
import { z } from 'zod';

type Raw = string | undefined;
type Ctx = z.core.$RefinementCtx<Raw>;

/** A setting read from one variable: empty counts as unset. */
function setting<T>(read: (raw: string, fail: (message: string) => never) => T, fallback: T) {
  return z
    .string()
    .optional()
    .transform((raw: Raw, ctx: Ctx): T => {
      if (raw === undefined || raw.trim() === '') return fallback;
      try {
        return read(raw, (message) => {
          throw new SettingProblem(message);
        });
      } catch (error) {
        if (!(error instanceof SettingProblem)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message });
        return z.NEVER;
      }
    });
}

class SettingProblem extends Error {}

export const text = (fallback: string) => setting((raw) => raw, fallback);

export const optionalText = () => setting<string | null>((raw) => raw, null);

export const int = (fallback: number, min: number, max: number) =>
  setting((raw, fail) => {
    if (!/^\d+$/.test(raw.trim())) fail(`expected a whole number, got "${raw}"`);
    const n = Number(raw.trim());
    if (n < min || n > max) fail(`expected ${min} to ${max}, got ${n}`);
    return n;
  }, fallback);

export const bool = (fallback: boolean) =>
  setting((raw, fail) => {
    if (/^(true|1|yes)$/i.test(raw.trim())) return true;
    if (/^(false|0|no)$/i.test(raw.trim())) return false;
    return fail(`expected true or false, got "${raw}"`);
  }, fallback);

export const oneOf = <const T extends readonly string[]>(values: T, fallback: T[number]) =>
  setting(
    (raw, fail) => (values.includes(raw) ? (raw as T[number]) : fail(`expected one of ${values.join(', ')}, got "${raw}"`)),
    fallback,
  );

const checkHttpUrl = (raw: string, fail: (message: string) => never): string => {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) fail(`expected an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
};

/** An http(s) URL, without its trailing slashes. */
export const httpUrl = (fallback: string) => setting(checkHttpUrl, fallback);
export const optionalHttpUrl = () => setting<string | null>(checkHttpUrl, null);

/** A URL whose scheme matches `scheme` (e.g. postgres:// or redis://), or null when unset. */
export const optionalUrl = (scheme: RegExp, expected: string) =>
  setting<string | null>((raw, fail) => (scheme.test(raw) ? raw : fail(`expected ${expected}`)), null);

/** Any other rule: `read` returns the value or calls fail(message). */
export const custom = <T>(read: (raw: string, fail: (message: string) => never) => T, fallback: T) => setting(read, fallback);
