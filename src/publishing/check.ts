/**
 * The one cheap authenticated call that proves a connection at creation: App Store Connect's read
 * of one app, Google's token exchange at the key file's token_uri. The store's "no" is a 422
 * the user can act on; the store being down is a 502, and nothing is stored either way.
 */
import { Problem } from '../core/problem.ts';
import { AppStoreClient } from './app-store/client.ts';
import type { ConnectionSecret, CredentialCheck } from './connections.ts';
import { StoreError } from './errors.ts';
import { GoogleTokens, TokenRejected } from './google-play/token.ts';
import type { RetryPolicy } from '../core/retry.ts';

export function storeCredentialCheck(opts: { appStoreConnectUrl: string; timeoutMs?: number; retry?: RetryPolicy }): CredentialCheck {
  const retry = opts.retry ?? { attempts: 2, baseDelayMs: 150, maxDelayMs: 1_000, maxRetryAfterMs: 2_000 };
  return async (secret: ConnectionSecret) => {
    if (secret.store === 'app-store') {
      const client = new AppStoreClient(secret.creds, { baseUrl: opts.appStoreConnectUrl, retry, timeoutMs: opts.timeoutMs ?? 10_000 });
      try {
        // Reading an app id no one has: Apple checks the token first (401 for a bad or revoked key)
        // and answers 404 for a good one; no app id is needed to prove the key.
        await client.call('GET', '/v1/apps/0?fields[apps]=bundleId', undefined, true);
      } catch (e) {
        throw toProblem(e, 'App Store Connect');
      }
      return;
    }
    try {
      await new GoogleTokens(secret.account, { timeoutMs: opts.timeoutMs ?? 10_000 }).token();
    } catch (e) {
      throw toProblem(e, 'Google');
    }
  };
}

function toProblem(e: unknown, store: string): Problem {
  if (e instanceof TokenRejected || (e instanceof StoreError && e.kind === 'rejected'))
    return new Problem('store_credentials_rejected', `${store} refused these credentials: ${e.message}`);
  if (e instanceof StoreError && e.kind === 'refused')
    return new Problem('store_credentials_rejected', `${store} did not accept a call with these credentials: ${e.message}`);
  return new Problem('store_unavailable', `${store} could not be reached to check the credentials; try again. (${(e as Error).message})`);
}
