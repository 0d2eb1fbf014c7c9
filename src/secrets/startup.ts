/**
 * The keyring of a starting process, and the at-start migration of secrets still in clear: webhook
 * signing secrets and the generated URL-signing secret were kept in clear before they were sealed,
 * and still are where no key is configured (DATABASE_URL without SECRETS_KEY), so that webhooks
 * and signed URLs keep working there. The first start with a key seals them.
 */
import type { Db } from '../db/pool.ts';
import type { Keyring } from './envelope.ts';
import { loadKeyring, type SecretsSettings } from './keys.ts';
import { sealClearSecrets } from './rotate.ts';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export async function openSecrets(settings: SecretsSettings, db: Db, log?: Log): Promise<Keyring | null> {
  const keyring = loadKeyring(settings);
  if (!keyring) {
    log?.warn(
      {},
      'SECRETS_KEY is not set: store connections are refused, and webhook signing secrets and the generated URL-signing secret are kept in clear; set SECRETS_KEY to seal them',
    );
    return null;
  }
  const sealed = await sealClearSecrets(db, keyring);
  if (sealed > 0) log?.info({ sealed }, 'sealed secrets that were kept in clear');
  return keyring;
}
