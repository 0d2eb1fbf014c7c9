/**
 * `shotgen secrets rotate`. With SECRETS_KEY: the operator has set the new key in SECRETS_KEY and
 * the old one in SECRETS_KEY_PREVIOUS; every row is re-wrapped under the new one, after which
 * SECRETS_KEY_PREVIOUS can go. On the embedded default: a new DATA_DIR/secrets.key is made (the
 * old kept in secrets.key.previous) and every row re-wrapped under it.
 */
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import { loadKeyring, replaceGeneratedKey } from './keys.ts';
import { rotateSecrets, type RotationResult } from './rotate.ts';

export async function rotateCommand(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'secretsKey' | 'secretsKeyPrevious'>,
  db: Db,
): Promise<RotationResult> {
  if (config.secretsKey) return rotateSecrets(db, loadKeyring(config)!);
  if (config.databaseUrl !== null)
    throw new Error('SECRETS_KEY is not set: set the new key in SECRETS_KEY and the old one in SECRETS_KEY_PREVIOUS, then rotate');
  return rotateSecrets(db, replaceGeneratedKey(config.dataDir));
}
