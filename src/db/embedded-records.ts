/**
 * What shotgen processes sharing a DATA_DIR tell each other through DATA_DIR/run, so that they
 * share one embedded server (see src/db/embedded.ts): the lock, the owner and the clients.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from './postmaster.ts';

export type Role = 'serve' | 'command';

const OWNER_FILE = 'owner.json';
const LOCK_FILE = 'lock';
const CLIENTS_DIR = 'clients';
// Long enough to wait out another process's initdb (~1 s) or a fast shutdown.
const LOCK_TIMEOUT_MS = 120_000;

/**
 * One shotgen process at a time starts, attaches to or stops the server of a DATA_DIR: without it,
 * two processes could both run initdb, delete each other's fresh postmaster.pid, or attach to a
 * server another is stopping. The lock file holds its owner's pid; a dead owner's lock is stale.
 */
export async function withLock<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  const file = path.join(dataDir, 'run', LOCK_FILE);
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = 0;
    let age = 0;
    try {
      holder = Number(fs.readFileSync(file, 'utf8'));
      age = Date.now() - fs.statSync(file).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    // An empty file is one being written, unless it has stayed empty for a while.
    const stale = holder > 0 ? !isAlive(holder) : age > 5_000;
    if (stale) {
      fs.rmSync(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${file}, held by pid ${holder}`);
    await sleep(10);
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** The process that will stop the server, unless it hands it over first. */
export interface OwnerRecord {
  pid: number;
  role: Role;
}

export function readOwner(dataDir: string): OwnerRecord | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, 'run', OWNER_FILE), 'utf8')) as OwnerRecord;
  } catch {
    return null;
  }
}

export function writeOwner(dataDir: string, owner: OwnerRecord): void {
  fs.writeFileSync(path.join(dataDir, 'run', OWNER_FILE), JSON.stringify(owner));
}

export function removeOwner(dataDir: string): void {
  fs.rmSync(path.join(dataDir, 'run', OWNER_FILE), { force: true });
}

/**
 * Every open handle registers in DATA_DIR/run/clients, so that an owner which stops while other
 * processes (or other handles in this one) still use the server hands it over instead of cutting
 * their connections: the last user stops it.
 */
export interface Client {
  id: string;
  pid: number;
  role: Role;
  /** The postmaster it uses: entries for an earlier server (one that crashed) do not count. */
  server: number;
}

let handles = 0;

function clientsDir(dataDir: string): string {
  return path.join(dataDir, 'run', CLIENTS_DIR);
}

export function register(dataDir: string, role: Role, server: number): string {
  const id = `${process.pid}-${++handles}`;
  fs.mkdirSync(clientsDir(dataDir), { recursive: true });
  fs.writeFileSync(path.join(clientsDir(dataDir), id), JSON.stringify({ role, server }));
  return id;
}

export function unregister(dataDir: string, id: string): void {
  fs.rmSync(path.join(clientsDir(dataDir), id), { force: true });
}

/** For a fresh server: whoever was registered used a dead one. */
export function removeClients(dataDir: string): void {
  fs.rmSync(clientsDir(dataDir), { recursive: true, force: true });
}

export function liveClients(dataDir: string, server: number): Client[] {
  let names: string[];
  try {
    names = fs.readdirSync(clientsDir(dataDir));
  } catch {
    return [];
  }
  const clients: Client[] = [];
  for (const id of names) {
    const pid = Number(id.split('-')[0]);
    let entry: Partial<Client>;
    try {
      entry = JSON.parse(fs.readFileSync(path.join(clientsDir(dataDir), id), 'utf8')) as Partial<Client>;
    } catch {
      entry = {};
    }
    if (pid > 0 && isAlive(pid) && entry.server === server)
      clients.push({ id, pid, role: entry.role === 'serve' ? 'serve' : 'command', server });
    else fs.rmSync(path.join(clientsDir(dataDir), id), { force: true });
  }
  return clients;
}
