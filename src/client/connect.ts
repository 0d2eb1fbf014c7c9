/**
 * `shotgen connect app-store|google-play` and the MCP tool create_store_connection: a store
 * connection from key files on this machine. The key is read from its file here and sent once to
 * the server, which tries it against the store and keeps it encrypted; it is never an argument
 * (shell history, an agent's conversation) and never printed.
 */
import type { CreateStoreConnectionRequest, StoreConnection } from '@shotgen/client';
import fs from 'node:fs/promises';
import type { AppStoreUpload } from '../publishing/connections.ts';
import type { ClientContext } from './context.ts';
import { ClientFailure, EXIT } from './exit-codes.ts';

/** How an App Store connection puts screenshots on the version (docs/publishing.md): the API's appStoreUpload. */
export const APP_STORE_UPLOADS = ['screenshot-sets', 'asset-library'] as const satisfies readonly AppStoreUpload[];

export interface ConnectInput {
  store: 'app-store' | 'google-play';
  issuerId?: string;
  keyId?: string;
  /** The .p8 file's path. */
  privateKeyPath?: string;
  appStoreUpload?: string;
  /** The service account JSON key file's path. */
  serviceAccountPath?: string;
}

const refuse = (message: string) => new ClientFailure(message, EXIT.usage);

async function readKey(file: string, what: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch (error) {
    throw refuse(`${what}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The request body, with the key read from its file; a missing or unreadable input is a usage error naming it. */
export async function connectionRequest(input: ConnectInput): Promise<CreateStoreConnectionRequest> {
  if (input.store === 'app-store') {
    const missing = (['issuerId', 'keyId', 'privateKeyPath'] as const).filter((k) => !input[k]);
    if (missing.length) throw refuse(`an App Store connection needs ${missing.join(', ')}`);
    if (input.serviceAccountPath) throw refuse('serviceAccountPath is for a Google Play connection');
    const upload = input.appStoreUpload ?? 'screenshot-sets';
    if (!APP_STORE_UPLOADS.some((u) => u === upload))
      throw refuse(`appStoreUpload must be ${APP_STORE_UPLOADS.join(' or ')}, got "${upload}"`);
    return {
      store: 'app-store',
      issuerId: input.issuerId!,
      keyId: input.keyId!,
      privateKey: await readKey(input.privateKeyPath!, 'privateKeyPath'),
      appStoreUpload: upload as AppStoreUpload,
    };
  }
  if (input.store !== 'google-play') throw refuse(`store must be app-store or google-play, got "${String(input.store)}"`);
  const appStoreOnly = (['issuerId', 'keyId', 'privateKeyPath', 'appStoreUpload'] as const).filter((k) => input[k] !== undefined);
  if (appStoreOnly.length) throw refuse(`${appStoreOnly.join(', ')} are for an App Store connection`);
  if (!input.serviceAccountPath) throw refuse('a Google Play connection needs serviceAccountPath (the JSON key file)');
  const text = await readKey(input.serviceAccountPath, 'serviceAccountPath');
  let serviceAccount: unknown;
  try {
    serviceAccount = JSON.parse(text);
  } catch {
    throw refuse(`serviceAccountPath: ${input.serviceAccountPath} is not a JSON key file`);
  }
  if (!serviceAccount || typeof serviceAccount !== 'object' || Array.isArray(serviceAccount))
    throw refuse(`serviceAccountPath: ${input.serviceAccountPath} is not a JSON key file`);
  return { store: 'google-play', serviceAccount: serviceAccount as Record<string, unknown> };
}

export async function connect(ctx: ClientContext, input: ConnectInput): Promise<StoreConnection> {
  const created = await ctx.client.createStoreConnection(await connectionRequest(input));
  ctx.out({ kind: 'object', value: created });
  return created;
}
