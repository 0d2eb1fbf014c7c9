/** TypeBox helpers shared by the domain schemas (planning/, jobs/) and the API's own. */
import { Kind, Type, TypeRegistry, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * StringEnum's own kind, so that TypeBox's compiler (the planner's request check, set-schemas.ts)
 * can check it too: it refuses a kind it has no check for, and `Unsafe` has none. The kind is a
 * symbol key, so the JSON Schema (and the OpenAPI document) stays a plain `enum`.
 */
const STRING_ENUM = 'StringEnum';
if (!TypeRegistry.Has(STRING_ENUM))
  TypeRegistry.Set<{ enum: readonly unknown[] }>(STRING_ENUM, (schema, value) => typeof value === 'string' && schema.enum.includes(value));

/** A string enum as JSON Schema `enum`: one clear validation error and a plain enum in OpenAPI. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ [Kind]: STRING_ENUM, type: 'string', enum: [...values], ...options });
}

/**
 * `T | null` as `type: [T's type, "null"]`, not `anyOf`: the same JSON Schema meaning (valid in
 * OpenAPI 3.1), but fast-json-stringify picks an anyOf branch by validating the value against
 * each one, which made serialising a finished job about 70 % more expensive (bench/serialize-job.ts).
 */
export function Nullable<T extends TSchema>(schema: T, options: Record<string, unknown> = {}): TUnsafe<Static<T> | null> {
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== 'string') throw new Error('Nullable needs a schema with a single type');
  return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [type, 'null'] });
}
