/**
 * The planner's request checked as the API checks its body: the compiled TypeBox schema (one
 * validator for the API and the CLI alike), then what a schema cannot say (blank headlines,
 * locales, orientation). Errors in the API's words (`validation_failed` field errors).
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, ValueErrorType, type ValueError } from '@sinclair/typebox/compiler';
import { validationFailed, type FieldError } from '../core/problem.ts';
import { PlanRequestSchema } from '../core/set-schemas.ts';
import { localesErrors } from '../core/locales.ts';
import { OWN_SLIDE_LIMITS, type PlanInput, type PlanRequest } from '../core/set.ts';
import { DEVICES } from '../core/devices.ts';
import { orientationError } from '../core/orientation.ts';

/** The request's shape, checked as the API checks its body: compiled once, here at module load. */
const requestCheck = TypeCompiler.Compile(PlanRequestSchema);

/**
 * The planner's request type takes null for an absent field (a stored job, the CLI's flags); the
 * schema, written for JSON bodies, takes only absence: so null is dropped before the check.
 */
function withoutNulls(r: PlanRequest): Record<string, unknown> {
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null));
  if (Array.isArray(r.slides))
    out.slides = r.slides.map((s) =>
      s && typeof s === 'object' ? Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null)) : s,
    );
  return out;
}

type Bounded = {
  pattern?: unknown;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
};

/** A schema error in the words the planner has always used (`validationFailed` field errors). */
function fieldError(e: ValueError): FieldError | null {
  const field = e.path.replace(/^\//, '') || 'request';
  const s = e.schema as TSchema & Bounded & { enum?: string[] };
  // TypeBox counts UTF-16 units, ajv (the API) code points: an emoji must not fail here alone.
  if (e.type === ValueErrorType.StringMaxLength && typeof e.value === 'string' && [...e.value].length <= s.maxLength!) return null;
  if (s.enum) return { field, message: `must be one of ${s.enum.join(', ')}` };
  if (s.maxLength !== undefined)
    return {
      field,
      message: s.minLength ? `must be ${s.minLength} to ${s.maxLength} characters` : `must be at most ${s.maxLength} characters`,
    };
  if (s.maxItems !== undefined) return { field, message: `must hold ${s.minItems ?? 0} to ${s.maxItems} ${field}` };
  // ajv's words, as the API says it.
  if (typeof s.pattern === 'string') return { field, message: `must match pattern "${s.pattern}"` };
  if (s.type === 'integer' && s.maximum !== undefined) return { field, message: `must be an integer from ${s.minimum} to ${s.maximum}` };
  return { field, message: e.message };
}

/** Throws `validation_failed` with every problem of the request found, not only the first. */
export function validate(input: PlanInput): void {
  const errors: FieldError[] = [];
  const r = input.request;
  if (!Array.isArray(input.listings) || input.listings.length === 0)
    errors.push({ field: 'listings', message: 'at least one listing is needed to plan from' });
  const locales = localesErrors(r.locales, !!r.slides);
  for (const e of requestCheck.Errors(withoutNulls(r))) {
    const found = fieldError(e);
    // localesErrors says the same of a locale (the words the create path uses too), and more.
    if (!found || (locales.length > 0 && /^locales(\/|$)/.test(found.field))) continue;
    if (!errors.some((x) => x.field === found.field && x.message === found.message)) errors.push(found);
  }
  // What the schema cannot say: a headline of spaces is blank, and the locales' own rules.
  r.slides?.forEach((s, i) => {
    if (typeof s?.headline === 'string' && s.headline.length > 0 && s.headline.trim().length === 0)
      errors.push({ field: `slides/${i}/headline`, message: `must be 1 to ${OWN_SLIDE_LIMITS.headline} characters` });
  });
  errors.push(...locales);
  const turned = input.request.device in DEVICES ? orientationError(input.request.device, r.orientation) : null;
  if (turned) errors.push({ field: 'orientation', message: turned });
  if (errors.length) throw validationFailed(errors);
}
