/**
 * Google service accounts for the publishing harnesses, one RSA pair per test process: generating a
 * 2048-bit pair cost 0.15-0.3 CPU-s, and the harnesses made one per test (about ninety a run). Each
 * account is still its own (client email, key id), registered with its harness's own fake Google
 * Play, which finds the public key by the client email; a test that needs a stranger's key makes one
 * with generateServiceAccount.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { generateServiceAccount } from '../../src/fake-stores/keys.ts';

let pair: { privateKey: KeyObject; publicKey: KeyObject } | null = null;

export const testServiceAccount = (tokenUri: string): ReturnType<typeof generateServiceAccount> =>
  generateServiceAccount(tokenUri, undefined, (pair ??= generateKeyPairSync('rsa', { modulusLength: 2048 })));
