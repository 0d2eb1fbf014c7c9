/**
 * The database of a running process: an external PostgreSQL (DATABASE_URL) or the embedded
 * server in DATA_DIR, behind one pg Pool either way, with the schema brought up to date.
 */
import type { Config } from '../config.ts';
import { openEmbeddedServer, type EmbeddedServer } from './embedded.ts';
import { migrate } from './migrate.ts';
import { createPool, type Db } from './pool.ts';

export interface Database {
  pool: Db;
  url: string;
  /** The embedded server, when this process uses one. */
  embedded: EmbeddedServer | null;
  /** Close the pool, then stop the embedded server if this process owns it. */
  close(): Promise<void>;
}

export interface OpenOptions {
  role?: 'serve' | 'command';
  migrate?: boolean;
  log?: (message: string) => void;
  warn?: (message: string) => void;
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'>,
  opts: OpenOptions = {},
): Promise<Database> {
  const embedded = config.databaseUrl
    ? null
    : await openEmbeddedServer({
        dataDir: config.dataDir,
        role: opts.role,
        log: opts.log,
        warn: opts.warn,
        supervise: opts.role === 'serve',
      });
  const url = config.databaseUrl ?? embedded!.url;
  const pool = createPool(url, config.databasePoolSize);
  try {
    if (opts.migrate !== false) await migrate(pool);
  } catch (error) {
    await pool.end();
    await embedded?.stop();
    throw error;
  }
  return {
    pool,
    url,
    embedded,
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
