/**
 * What a store call can end in, as the publication records it: `rejected` (credentials refused:
 * no retry helps), `unavailable` (5xx/429/network after the retries: a later run may pass),
 * `refused` (the store says no to this change, e.g. a version not editable or a review in
 * progress) and `mismatch` (verify found the store not as planned).
 */
export type StoreErrorKind = 'rejected' | 'unavailable' | 'refused' | 'mismatch';

export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    message: string,
    readonly status: number | null = null,
    /** How long the store asked to be left alone (a 429's Retry-After); null when it did not say. */
    readonly retryAfterMs: number | null = null,
    /** The store's own error: App Store Connect's `errors[0]` code and detail, for the user to look up. */
    readonly storeError: { code: string; detail: string } | null = null,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/**
 * The store's request budget is nearly spent (App Store Connect's hourly budget per key): the
 * step is put off for `retryAfterMs` instead of spending the rest on calls that would be 429s,
 * and that costs none of the step's retries. Everything done so far is saved, so the deferred
 * run resumes where this one stopped.
 */
export class StoreBusy extends StoreError {
  declare readonly retryAfterMs: number;

  constructor(message: string, retryAfterMs: number) {
    super('unavailable', message, 429, retryAfterMs);
    this.name = 'StoreBusy';
  }
}
