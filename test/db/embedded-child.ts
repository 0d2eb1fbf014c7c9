/**
 * Another process using the embedded server, for test/db/embedded.test.ts: ownership is recorded
 * per process, so attaching "from elsewhere" needs a real second process.
 *
 * Usage: node --import tsx test/db/embedded-child.ts <dataDir> <serve|command>
 * Prints one JSON line once open ({pid, owned, answer}), then waits for "stop" on stdin, stops its
 * handle, prints {stopped: true, ownedBeforeStop} and ends.
 */
import readline from 'node:readline';
import pg from 'pg';
import { openEmbeddedServer } from '../../src/db/embedded.ts';

const [dataDir, role] = process.argv.slice(2);
const server = await openEmbeddedServer({ dataDir, role: role as 'serve' | 'command' });
const client = new pg.Client({ connectionString: server.url });
await client.connect();
const { rows } = await client.query<{ answer: number }>('SELECT 41 + 1 AS answer');
await client.end();
process.stdout.write(`${JSON.stringify({ pid: server.pid, owned: server.owned, answer: rows[0].answer })}\n`);

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (line.trim() !== 'stop') continue;
  const ownedBeforeStop = server.owned;
  await server.stop();
  process.stdout.write(`${JSON.stringify({ stopped: true, ownedBeforeStop })}\n`);
  break;
}
// No process.exit(): the process must be able to end on its own while a server it started keeps
// running for another process.
process.stdin.destroy();
