/** The object store the configuration names: a bucket when S3_BUCKET is set, else DATA_DIR/objects. */
import path from 'node:path';
import type { Config } from '../config.ts';
import { FileObjectStore } from './filesystem.ts';
import { S3ObjectStore } from './s3.ts';
import type { ObjectStore } from './store.ts';

export { ObjectStoreUnavailable, type ObjectStore, type StoredObject } from './store.ts';

export function createObjectStore(config: Pick<Config, 'dataDir' | 's3'>): ObjectStore {
  return config.s3 ? new S3ObjectStore(config.s3) : new FileObjectStore(path.join(config.dataDir, 'objects'));
}
