/** Objects as files under one directory (DATA_DIR/objects by default): one machine, any processes. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { checkKey, ObjectStoreUnavailable, type ObjectStore, type StoredObject } from './store.ts';

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException)?.code === 'ENOENT';

export class FileObjectStore implements ObjectStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  async put(key: string, body: Buffer | readonly Buffer[], _contentType?: string): Promise<void> {
    const file = this.file(key);
    // Written aside, then renamed over: rename is atomic, so a reader never sees half a file.
    const scratch = `${file}.${randomBytes(6).toString('hex')}.part`;
    try {
      await fsp.mkdir(path.dirname(file), { recursive: true });
      // Parts are written one after another (writeFile takes an iterable of buffers).
      await fsp.writeFile(scratch, Buffer.isBuffer(body) ? body : body.values());
      await fsp.rename(scratch, file);
    } catch (error) {
      await fsp.rm(scratch, { force: true }).catch(() => undefined);
      throw new ObjectStoreUnavailable(`could not write ${key}: ${(error as Error).message}`, { cause: error });
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(this.file(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw new ObjectStoreUnavailable(`could not read ${key}: ${(error as Error).message}`, { cause: error });
    }
    // Stat and read the same open file: a concurrent overwrite renames a new file into place and
    // leaves this one whole.
    const { size } = await handle.stat();
    return { body: handle.createReadStream(), bytes: size };
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    const trimmed = prefix.replace(/\/+$/, '');
    const target = this.file(trimmed);
    // A prefix names a directory of ours (jobs/<id>/<attempt>); a partial name is not supported.
    if (fs.existsSync(target)) await fsp.rm(target, { recursive: true, force: true });
  }

  async close(): Promise<void> {}
}
