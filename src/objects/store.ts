/**
 * Object storage: the rendered pictures, archives and uploaded screens. One small interface, two
 * places (the file system under DATA_DIR/objects, or an S3-compatible bucket shared by every
 * process). Objects are written whole or not at all, and read as streams: a picture is never held
 * whole in the serving process's memory.
 */
import type { Readable } from 'node:stream';

export interface StoredObject {
  body: Readable;
  bytes: number;
}

export interface ObjectStore {
  /**
   * Writes the object whole; a reader sees the old bytes or the new, never a part. `body` may be
   * the object's parts in order (an archive's entries), written without joining them first.
   */
  put(key: string, body: Buffer | readonly Buffer[], contentType: string): Promise<void>;
  /** The object as a stream, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with the prefix (an abandoned attempt's files). */
  deletePrefix(prefix: string): Promise<void>;
  close(): Promise<void>;
}

/** The store could not be reached: the request is fine and may be retried (503, never a 500). */
export class ObjectStoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ObjectStoreUnavailable';
  }
}

// Keys are made by the service, never taken from a request; this keeps a bug from walking out of
// the store's root (`..`) or naming odd files.
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').includes('..')) throw new Error(`invalid object key ${JSON.stringify(key)}`);
  return key;
}
