/**
 * Run a change and return only after its NOTIFY has been delivered back to us. PostgreSQL signals
 * every listening session at commit, so by the time our own copy arrives the other servers'
 * copies are on their way too: an operator's revoke returns when it is in effect everywhere, not
 * merely committed.
 */
import pg from 'pg';

export async function waitForNotification<T>(url: string, channel: string, change: () => Promise<T>, timeoutMs = 2_000): Promise<T> {
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  try {
    await listener.query(`LISTEN ${channel}`);
    const arrived = new Promise<void>((resolve) => {
      listener.once('notification', () => resolve());
      setTimeout(resolve, timeoutMs).unref();
    });
    const result = await change();
    if (result) await arrived;
    return result;
  } finally {
    await listener.end();
  }
}
