/**
 * Every secret column the service keeps, and the two passes over them: `shotgen secrets rotate`
 * (every sealed value re-wrapped under the current master key, so the previous keys can then be
 * dropped) and, at start, sealing the values still in clear (kept so by a version that did not
 * seal them, or by a process that ran with DATABASE_URL and no SECRETS_KEY). Row by row in one
 * transaction; the rows are locked, so processes starting together seal each value once.
 */
import { transaction, type Db } from '../db/pool.ts';
import { isSealed, Keyring } from './envelope.ts';

/**
 * Each table's secret column and the column its context (AAD, `<table>:<value>`) is bound to.
 * store_connections holds only sealed values (a CHECK says so); the others may hold clear ones.
 */
export const SEALED_COLUMNS: { table: string; column: string; context: string }[] = [
  { table: 'store_connections', column: 'secret', context: 'id' },
  { table: 'webhook_endpoints', column: 'secret', context: 'id' },
  { table: 'service_secrets', column: 'value', context: 'name' },
];

export interface RotationResult {
  keyId: string;
  rewrapped: number;
  unchanged: number;
  /** Values that were in clear and are sealed now. */
  sealed: number;
}

export async function rotateSecrets(db: Db, keyring: Keyring): Promise<RotationResult> {
  return reseal(db, keyring, true);
}

/** Seals every value still in clear; sealed ones are left as they are. */
export async function sealClearSecrets(db: Db, keyring: Keyring): Promise<number> {
  return (await reseal(db, keyring, false)).sealed;
}

async function reseal(db: Db, keyring: Keyring, rewrap: boolean): Promise<RotationResult> {
  return transaction(db, async (tx) => {
    let rewrapped = 0;
    let unchanged = 0;
    let sealed = 0;
    for (const { table, column, context } of SEALED_COLUMNS) {
      // A clear value never starts with "v1." (whsec_…, base64url), so the prefix tells them apart.
      const which = rewrap ? '' : `AND ${column} NOT LIKE 'v1.%'`;
      const { rows } = await tx.query<{ ctx: string; value: string }>(
        `SELECT ${context} AS ctx, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL ${which} FOR UPDATE`,
      );
      for (const r of rows) {
        const aad = `${table}:${r.ctx}`;
        let next: string;
        if (!isSealed(r.value)) {
          next = keyring.seal(r.value, aad);
          sealed++;
        } else if (Keyring.keyIdOfSealed(r.value) === keyring.currentId) {
          unchanged++;
          continue;
        } else {
          next = keyring.rewrap(r.value, aad);
          rewrapped++;
        }
        await tx.query(`UPDATE ${table} SET ${column} = $1 WHERE ${context} = $2`, [next, r.ctx]);
      }
    }
    return { keyId: keyring.currentId, rewrapped, unchanged, sealed };
  });
}
