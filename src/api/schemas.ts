/**
 * TypeBox schemas shared by the operations. Each one validates requests, types the handlers and is
 * what the OpenAPI document shows, so the three cannot drift apart.
 */
import { Type, type Static } from '@sinclair/typebox';
import { PROBLEMS, problemType, type ProblemCode } from '../core/problem.ts';
import { StringEnum } from '../core/typebox.ts';

export { StringEnum };

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri', description: 'A URI naming the problem.' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: StringEnum(Object.keys(PROBLEMS), { description: 'Stable, machine-readable error code.' }),
    requestId: Type.String({ description: 'Equals the x-request-id response header.' }),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), { description: 'validation_failed: every problem found.' }),
    ),
    cost: Type.Optional(Type.Integer({ description: 'insufficient_credits: what the request costs.' })),
    remaining: Type.Optional(Type.Integer({ description: 'insufficient_credits: credits left.' })),
    resetsAt: Type.Optional(Type.String({ format: 'date-time', description: 'insufficient_credits: when the allowance renews.' })),
    storeError: Type.Optional(
      Type.Object(
        { code: Type.String(), detail: Type.String() },
        { description: 'store_refused: the store’s own error (App Store Connect’s code and text), to look up in its documentation.' },
      ),
    ),
  },
  { $id: 'Problem', title: 'Problem', description: 'RFC 9457 problem details.', additionalProperties: true },
);

export type ProblemBody = Static<typeof ProblemSchema>;

type HeaderDocs = Record<string, { type: 'string'; description: string }>;

/** Every response carries it. */
const REQUEST_ID: HeaderDocs = {
  'x-request-id': { type: 'string', description: 'The request id (req_…); problem bodies repeat it as requestId.' },
  'Cache-Control': { type: 'string', description: '`no-store`: answers are per key and change.' },
  'X-Content-Type-Options': { type: 'string', description: '`nosniff`.' },
  'RateLimit-Policy': {
    type: 'string',
    description:
      'The rate-limit policies (IETF httpapi draft): `"key";q=<burst>;w=<s>` per API key and `"failed-auth";q=<n>;w=60` per client address.',
  },
  RateLimit: {
    type: 'string',
    description: 'The state of the policy this request counted against: `"key";r=<remaining>;t=<seconds until full>`.',
  },
};
export const RETRY_AFTER: HeaderDocs = { 'Retry-After': { type: 'string', description: 'Seconds to wait before trying again.' } };

/** A problem response for a route schema: problem+json, the shared Problem schema, an example. */
const problemRef = (description: string, example?: Record<string, unknown>, headers: HeaderDocs = {}) => ({
  description,
  headers: { ...REQUEST_ID, ...headers },
  content: { 'application/problem+json': { schema: Type.Ref('Problem'), ...(example ? { example } : {}) } },
});

/** A success response: its schema, what it means, the headers it carries. */
export const success = <T extends object>(schema: T, description: string, headers: HeaderDocs = {}): T => ({
  ...schema,
  description,
  headers: { ...REQUEST_ID, ...headers },
});

const example = (code: ProblemCode, detail: string, extra: Record<string, unknown> = {}) => ({
  type: problemType(code),
  title: PROBLEMS[code].title,
  status: PROBLEMS[code].status,
  detail,
  code,
  requestId: 'req_01JD2ZK5T8Q3W4E5R6T7Y8U9I0',
  ...extra,
});

/** The problem responses every authenticated operation can give. */
export const commonProblems = {
  401: problemRef(
    'Missing, invalid, revoked or ambiguous API key (`missing_api_key`, `invalid_api_key`, `revoked_api_key`, `ambiguous_credentials`).',
    example('missing_api_key', 'Send your API key in the "Authorization: Bearer <API key>" header or the "x-api-key: <API key>" header.'),
    { 'WWW-Authenticate': { type: 'string', description: 'Always `Bearer`.' } },
  ),
  429: problemRef(
    'Too many requests for this key (`rate_limited`), or too many failed authentications from this address; retry after Retry-After.',
    example('rate_limited', 'This key may make 20 requests a second (bursts of 40). Retry after 1 s.'),
    RETRY_AFTER,
  ),
  500: problemRef('Unexpected error (`internal_error`).'),
  503: problemRef(
    'The server is restarting or its database is unreachable (`service_unavailable`); retry after Retry-After.',
    undefined,
    RETRY_AFTER,
  ),
};

export const bodyProblems = {
  400: problemRef(
    'Invalid JSON (`invalid_json`) or a request that breaks the schema (`validation_failed`, with every problem in `errors`).',
    example('validation_failed', 'count: must be <= 10', { errors: [{ field: 'count', message: 'must be <= 10' }] }),
  ),
  413: problemRef('Body over 64 KiB (`payload_too_large`).'),
  415: problemRef('Body is not application/json (`unsupported_media_type`).'),
};

export { problemRef, example as problemExample };
