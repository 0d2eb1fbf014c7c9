/**
 * The one error type of the service. Domain code throws it; the HTTP layer renders it as RFC 9457
 * problem details. Codes are a closed set so clients can switch on them.
 */
/** Every problem code with the one HTTP status and title it always has: throw sites name only the code. */
export const PROBLEMS = {
  invalid_json: { status: 400, title: 'Invalid JSON' },
  validation_failed: { status: 400, title: 'Validation failed' },
  missing_api_key: { status: 401, title: 'Missing API key' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  revoked_api_key: { status: 401, title: 'Revoked API key' },
  ambiguous_credentials: { status: 401, title: 'Ambiguous credentials' },
  insufficient_credits: { status: 402, title: 'Insufficient credits' },
  app_not_found: { status: 404, title: 'App not found' },
  job_not_found: { status: 404, title: 'Job not found' },
  screen_not_found: { status: 404, title: 'Screen not found' },
  screen_limit: { status: 409, title: 'Too many screens' },
  job_not_revisable: { status: 409, title: 'Job not revisable' },
  webhook_not_found: { status: 404, title: 'Webhook not found' },
  webhook_limit: { status: 409, title: 'Too many webhooks' },
  invalid_image: { status: 400, title: 'Invalid image' },
  invalid_signature: { status: 403, title: 'Invalid signature' },
  not_found: { status: 404, title: 'Not found' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  store_app_not_found: { status: 422, title: 'Store app not found' },
  cannot_fill_set: { status: 422, title: 'Cannot fill the set' },
  rate_limited: { status: 429, title: 'Rate limited' },
  store_unavailable: { status: 502, title: 'Store unavailable' },
  store_connection_not_found: { status: 404, title: 'Store connection not found' },
  publication_not_found: { status: 404, title: 'Publication not found' },
  store_credentials_rejected: { status: 422, title: 'Store credentials rejected' },
  publication_not_ready: { status: 409, title: 'Publication not ready' },
  store_refused: { status: 409, title: 'Store refused' },
  store_api_unsupported: { status: 422, title: 'Not possible through the store’s API' },
  experiment_not_found: { status: 404, title: 'Experiment not found' },
  secrets_key_missing: { status: 503, title: 'Secrets key not configured' },
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  // Refused by the HTTP parser or a timeout before routing (src/http/client-errors.ts).
  bad_request: { status: 400, title: 'Bad request' },
  request_timeout: { status: 408, title: 'Request timeout' },
  headers_too_large: { status: 431, title: 'Request header fields too large' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
} as const;

export type ProblemCode = keyof typeof PROBLEMS;

export interface FieldError {
  field: string;
  message: string;
}

export class Problem extends Error {
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    /** Extension members added to the body, e.g. `errors`, `cost`, `remaining`. */
    readonly extensions: Record<string, unknown> = {},
    /** Extra response headers, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'Problem';
  }

  get status(): number {
    return PROBLEMS[this.code].status;
  }

  get title(): string {
    return PROBLEMS[this.code].title;
  }
}

export function validationFailed(errors: FieldError[]): Problem {
  const detail =
    errors.length === 1 ? `${errors[0].field}: ${errors[0].message}` : `The request has ${errors.length} problems; see errors.`;
  return new Problem('validation_failed', detail, { errors });
}

/** A 401 with the challenge every 401 carries. */
export const unauthorized = (
  code: 'missing_api_key' | 'invalid_api_key' | 'revoked_api_key' | 'ambiguous_credentials',
  detail: string,
): Problem => new Problem(code, detail, {}, { 'WWW-Authenticate': 'Bearer' });

/** The `type` URI of a problem code. */
export const problemType = (code: ProblemCode): string => `https://shotgen.dev/problems/${code.replaceAll('_', '-')}`;

export const isProblem = (e: unknown): e is Problem => e instanceof Problem;
