/**
 * The one error type of the service. Domain code throws it; the HTTP layer renders it as RFC 9457
 * problem details. Codes are a closed set so clients can switch on them.
 */
export const PROBLEM_TITLES = {
  invalid_json: 'Invalid JSON',
  validation_failed: 'Validation failed',
  missing_api_key: 'Missing API key',
  invalid_api_key: 'Invalid API key',
  revoked_api_key: 'Revoked API key',
  ambiguous_credentials: 'Ambiguous credentials',
  insufficient_credits: 'Insufficient credits',
  app_not_found: 'App not found',
  job_not_found: 'Job not found',
  screen_not_found: 'Screen not found',
  screen_limit: 'Too many screens',
  webhook_not_found: 'Webhook not found',
  webhook_limit: 'Too many webhooks',
  invalid_image: 'Invalid image',
  invalid_signature: 'Invalid signature',
  not_found: 'Not found',
  idempotency_key_in_use: 'Idempotency key in use',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  idempotency_key_reused: 'Idempotency key reused',
  store_app_not_found: 'Store app not found',
  rate_limited: 'Rate limited',
  store_unavailable: 'Store unavailable',
  internal_error: 'Internal error',
  service_unavailable: 'Service unavailable',
  // Refused by the HTTP parser or a timeout before routing (src/http/client-errors.ts).
  bad_request: 'Bad request',
  request_timeout: 'Request timeout',
  headers_too_large: 'Request header fields too large',
  method_not_allowed: 'Method not allowed',
} as const;

export type ProblemCode = keyof typeof PROBLEM_TITLES;

export interface FieldError {
  field: string;
  message: string;
}

export class Problem extends Error {
  constructor(
    readonly status: number,
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

  get title(): string {
    return PROBLEM_TITLES[this.code];
  }
}

export function validationFailed(errors: FieldError[]): Problem {
  const detail =
    errors.length === 1 ? `${errors[0].field}: ${errors[0].message}` : `The request has ${errors.length} problems; see errors.`;
  return new Problem(400, 'validation_failed', detail, { errors });
}

/** A 401 with the challenge every 401 carries. */
export const unauthorized = (
  code: 'missing_api_key' | 'invalid_api_key' | 'revoked_api_key' | 'ambiguous_credentials',
  detail: string,
): Problem => new Problem(401, code, detail, {}, { 'WWW-Authenticate': 'Bearer' });

/** The `type` URI of a problem code. */
export const problemType = (code: ProblemCode): string => `https://shotgen.dev/problems/${code.replaceAll('_', '-')}`;

export const isProblem = (e: unknown): e is Problem => e instanceof Problem;
