/** What the API's publishing operations need from the process (src/service.ts builds it). */
import type { Keyring } from '../secrets/envelope.ts';
import type { CredentialCheck } from './connections.ts';
import type { RetryPolicy } from '../core/retry.ts';

export interface PublishingServices {
  /** Null: DATABASE_URL without SECRETS_KEY, so no connection can be stored. */
  keyring: Keyring | null;
  check: CredentialCheck;
  /** Origins a key file's token_uri may use over plain http (the configured fakes). */
  allowedTokenOrigins: string[];
  /** Queues the next step of a publication (plan, or apply after approval). */
  advance(publicationId: string): Promise<void>;
  /** Where the API's own App Store calls go (submit, start a test, list variants). */
  appStoreConnectUrl: string;
  retry?: RetryPolicy;
}
