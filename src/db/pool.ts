/** One pg Pool per process, whichever server it points at. */
import pg from 'pg';

export type Db = pg.Pool;
export type DbClient = pg.PoolClient;
/** Anything that can run a query: the pool or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

// int8 (COUNT, SUM, bigserial) as JS numbers: our counts and credit sums stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createPool(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (server restart) must not crash the process. The pool
  // listens on idle clients only: a checked-out one needs its own listener (withClient).
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Run fn on one checked-out client. While a client is out of the pool nobody else listens for
 * its `error` event, and pg emits one when the server goes away (a restart, a crash, an
 * administrator's pg_terminate_backend) even between queries: unheard, it kills the process.
 * Here it is heard, the query in flight (or the next one) fails instead, and the broken client
 * is destroyed rather than put back.
 */
export async function withClient<T>(db: Db, fn: (client: DbClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on('error', onError);
  try {
    return await fn(client);
  } catch (error) {
    broken ??= isConnectionLost(error) ? (error as Error) : undefined;
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

/** Run fn in a transaction on one client; roll back on any error. */
export async function transaction<T>(db: Db, fn: (client: DbClient) => Promise<T>): Promise<T> {
  return withClient(db, async (client) => {
    await client.query('BEGIN');
    try {
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}

// Client-side messages of node-postgres for a connection that is gone (they carry no code).
const LOST_MESSAGES = ['Connection terminated', 'not queryable', 'Client was closed'];
// SQLSTATE class 08 (connection exception); 57P01-57P03: shut down, crashed, starting up; 53300:
// too many connections.
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
// Socket errors; ENOENT is a unix socket that is not there (the embedded server is down).
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);
const SOCKET_CALLS = new Set(['connect', 'read', 'write', 'getaddrinfo']);

/**
 * Whether an error means the database could not be reached or dropped the connection (a restart,
 * a crash, recovery in progress), as opposed to a problem with the statement: the request may
 * succeed if retried later.
 */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_STATES.test(code) && !('syscall' in error)) return true;
  // Only a socket's errno: an ENOENT from reading a file is a bug, not an outage.
  if (typeof code === 'string' && UNAVAILABLE_ERRNOS.has(code) && typeof syscall === 'string' && SOCKET_CALLS.has(syscall)) return true;
  if (LOST_MESSAGES.some((m) => error.message.includes(m)) || error.message === 'timeout exceeded when trying to connect') return true;
  return error.cause !== undefined && error.cause !== error && isConnectionLost(error.cause);
}

/** A unique constraint refused the row (PostgreSQL 23505): someone else got there first. */
export const isUniqueViolation = (e: unknown): boolean => (e as { code?: string })?.code === '23505';
