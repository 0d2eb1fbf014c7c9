/** What went wrong, as the one line and exit code the client commands end with. */
import { ShotgenError, ShotgenIntegrityError, ShotgenTimeoutError } from '@shotgen/client';
import { ClientFailure, EXIT } from './exit-codes.ts';

export function toFailure(error: unknown, baseUrl: string): ClientFailure {
  if (error instanceof ClientFailure) return error;
  if (error instanceof ShotgenError) {
    // 408 and 429 (after the retries) say "not now", like a 5xx: the request itself was fine.
    const unavailable = error.status >= 500 || error.status === 429 || error.status === 408;
    // The message is the problem's one line: each field error or the detail, code, status, requestId.
    return new ClientFailure(error.message, unavailable ? EXIT.unavailable : EXIT.refused);
  }
  if (error instanceof ShotgenTimeoutError) return new ClientFailure(error.message, EXIT.timedOut);
  if (error instanceof ShotgenIntegrityError) return new ClientFailure(error.message, EXIT.unavailable);
  // undici's "fetch failed" hides the reason in `cause`.
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = error.cause as { code?: string; message?: string } | undefined;
    return new ClientFailure(`cannot reach ${baseUrl}: ${cause?.code ?? cause?.message ?? 'network error'}`, EXIT.unavailable);
  }
  return new ClientFailure(`unexpected error: ${(error as Error)?.message ?? String(error)}`, EXIT.unexpected);
}
