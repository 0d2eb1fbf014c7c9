/**
 * What a failed render means for its job: a store image host or the object store that did not
 * answer is worth another attempt with its own reason; anything else is our bug, which the caller
 * logs and retries as an internal error. One mapping for new sets and revisions alike.
 */
import { ObjectStoreUnavailable } from '../objects/index.ts';
import { StoreImageUnavailable } from '../screens/store-images.ts';
import { RetryableJobError } from '../queue/runner.ts';

/** The job error for a failure outside our code, or null when the failure is ours (log it, then retry). */
export function outsideFailure(error: unknown): RetryableJobError | null {
  if (error instanceof StoreImageUnavailable)
    return new RetryableJobError({
      code: 'store_unavailable',
      message: `A listing screenshot could not be fetched: ${error.message}.`,
      retryable: true,
    });
  if (error instanceof ObjectStoreUnavailable)
    return new RetryableJobError({
      code: 'internal_error',
      message: 'The pictures could not be stored; the job is retried.',
      retryable: true,
    });
  return null;
}
