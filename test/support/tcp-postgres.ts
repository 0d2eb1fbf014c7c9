/**
 * A throwaway PostgreSQL on a free TCP port, from the embedded binaries: the "external" server of
 * the restart tests. Never the system PostgreSQL on 5432, which other runs share.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedServer, type EmbeddedServer } from '../../src/db/embedded.ts';
import { reachableBinaries } from '../../src/db/placement.ts';
import { binaries, initialise, prepareDirs, serverUser, socketDirFor } from '../../src/db/postmaster.ts';
import { freePort } from '../cli/helpers.ts';

export interface TcpPostgres {
  url: string;
  pid(): number;
  /** Fast shutdown (as pg_ctl restart does), down for `downMs`, then up again. */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function tcpPostgres(): Promise<TcpPostgres> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-tcp-'));
  const pgDir = path.join(dataDir, 'pg');
  const user = serverUser();
  prepareDirs(dataDir, pgDir, socketDirFor(dataDir), user);
  await initialise(dataDir, pgDir, reachableBinaries(await binaries(), user), user);
  // initdb was told to refuse TCP; this server is reached over TCP like an external one.
  const hba = path.join(pgDir, 'pg_hba.conf');
  fs.writeFileSync(hba, fs.readFileSync(hba, 'utf8').replace(/^(host\s.*)\breject\s*$/gm, '$1trust'));
  const port = await freePort();
  const open = () => openEmbeddedServer({ dataDir, settings: { listen_addresses: '127.0.0.1', port: String(port), fsync: 'off' } });
  let server: EmbeddedServer | null = await open();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid: () => server!.pid,
    async restart(downMs = 0) {
      await server?.stop();
      server = null;
      await new Promise((r) => setTimeout(r, downMs));
      server = await open();
    },
    async stop() {
      await server?.stop();
      server = null;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
