/**
 * Run a change and return only after its NOTIFY has come back to us, plus a short grace. PostgreSQL
 * signals every listening session at commit, so when our own copy arrives the other servers'
 * copies are in flight too; the grace covers their last hop. This narrows the window in which
 * another process can still serve a just-revoked key from its cache to (almost) nothing, but
 * cannot close it outright: a server that is stalled past the grace sees the change late.
 */
import pg from 'pg';

export async function waitForNotification<T>(
  url: string,
  channel: string,
  change: () => Promise<T>,
  timeoutMs = 2_000,
  graceMs = 50,
): Promise<T> {
  const listener = new pg.Client({ connectionString: url });
  // Losing the connection only means we cannot wait for the echo; it must not end the process.
  let lost: () => void = () => undefined;
  listener.on('error', () => lost());
  await listener.connect();
  try {
    await listener.query(`LISTEN ${channel}`);
    const arrived = new Promise<void>((resolve) => {
      lost = resolve;
      listener.once('notification', () => resolve());
      setTimeout(resolve, timeoutMs).unref();
    });
    const result = await change();
    if (result) {
      await arrived;
      await new Promise((r) => setTimeout(r, graceMs));
    }
    return result;
  } finally {
    await listener.end().catch(() => undefined);
  }
}
