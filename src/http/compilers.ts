/**
 * Fastify's schema compilers, remembering what they compiled for every server the process builds.
 * Each Fastify instance compiles its routes' request validators (Ajv) and response serializers
 * (fast-json-stringify) afresh: about 60 ms of CPU a build, most of buildServer's cost. A service
 * builds one server, but the test suite builds one per test (some 900 a run), from the same
 * schemas. A compiled function depends only on its schema, the shared schemas ($ref targets) and
 * the compiler's options, so it is kept under their JSON: a schema object made anew by each build
 * (inline `{ $ref: 'Problem' }`s, responses made by a helper) is found again by its content.
 * Fastify's own compilers make every function; only a function asked for again is not made twice.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type ValidatorFactory = ReturnType<typeof AjvCompiler>;
type SerializerFactory = ReturnType<typeof SerializerSelector>;
/** What Fastify passes a validator compiler (ajv-compiler's own type names only the schema). */
interface ValidatedPart {
  schema: unknown;
  httpPart?: string;
}

/** A schema, its context and the compiler's options, as one key (JSON drops TypeBox's symbols, which no compiler reads). */
const keyOf = (...parts: unknown[]): string => JSON.stringify(parts);

// Bounded by the distinct schemas the process's code declares: a few hundred functions.
const validators = new Map<string, unknown>();
const serializers = new Map<string, ReturnType<ReturnType<SerializerFactory>>>();

/** Fastify's Ajv compiler factory, one per process (it keeps one Ajv per set of shared schemas and options). */
const ajv = AjvCompiler();
const fjs = SerializerSelector();

const buildValidator = ((externalSchemas: Parameters<ValidatorFactory>[0], options: Parameters<ValidatorFactory>[1]) => {
  const compile = ajv(externalSchemas, options) as unknown as (route: ValidatedPart) => unknown;
  // Ajv's plugins are functions (JSON leaves them out): every server of the process passes the same ones.
  const context = keyOf(externalSchemas, options?.customOptions);
  return (route: ValidatedPart) => {
    const key = keyOf(context, route.schema, route.httpPart);
    let fn = validators.get(key);
    if (!fn) validators.set(key, (fn = compile(route)));
    return fn;
  };
}) as unknown as ValidatorFactory;

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = fjs(externalSchemas, options);
  const context = keyOf(externalSchemas, options);
  return (route) => {
    const key = keyOf(context, route.schema, route.httpStatus, (route as { contentType?: string }).contentType);
    let fn = serializers.get(key);
    if (!fn) serializers.set(key, (fn = compile(route)));
    return fn;
  };
};

/** Fastify's `schemaController.compilersFactory`. */
export const compilersFactory = { buildValidator, buildSerializer };
