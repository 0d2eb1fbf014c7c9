/**
 * Where the embedded server's files live when we run as root (containers, CI). PostgreSQL refuses
 * to run as root, so it runs as the `postgres` user, which must be able to reach its binaries and
 * its data. A checkout in a private directory (a `mktemp -d`, /root/...) is closed to that user,
 * and we do not open the operator's directories with chmod. Instead:
 *
 * - binaries the server user cannot reach are copied once per package version into a cache
 *   directory it can (/var/cache/shotgen), owned by root and read-only to others;
 * - a DATA_DIR it cannot reach keeps the cluster in /var/lib/shotgen/clusters/<random id>, owned by
 *   the server user (0700), and DATA_DIR/pg is a symbolic link to it, so that every shotgen
 *   process sharing DATA_DIR finds the same cluster.
 *
 * Where neither works (say, a read-only /var), the start stops with one line saying what to do.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Binaries, OsUser } from './postmaster.ts';

export const CACHE_ROOT = '/var/cache/shotgen';
export const CLUSTERS_ROOT = '/var/lib/shotgen/clusters';

export class PlacementError extends Error {}

const X = 1;
const R = 4;

/** The first directory on the way to `target` (or `target` itself) that `user` cannot pass. */
function blockerFor(target: string, user: OsUser, finalNeeds = X): string | null {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  let current: string = path.sep;
  for (let i = 0; i <= parts.length; i++) {
    let st: fs.Stats;
    try {
      st = fs.statSync(current);
    } catch {
      return null; // not there yet: whoever creates it decides its modes
    }
    const needs = i === parts.length ? finalNeeds : X;
    // setuid/setgid in child processes drops supplementary groups: only uid and gid count.
    const bits = st.uid === user.uid ? (st.mode >> 6) & 7 : st.gid === user.gid ? (st.mode >> 3) & 7 : st.mode & 7;
    if ((bits & needs) !== needs) return current;
    if (i < parts.length) current = path.join(current, parts[i]);
  }
  return null;
}

/** Makes `dir` (and missing parents) as root-owned 0755, refusing one that others could tamper with. */
function ensureRootDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0) {
    throw new PlacementError(`${dir} must be a directory owned by root and writable only by it`);
  }
}

/** Binaries the server user can run: the package's own, or a cached copy of its native/ tree. */
export function reachableBinaries(bin: Binaries, user: OsUser | null, log?: (message: string) => void): Binaries {
  if (!user || (!blockerFor(bin.initdb, user, R | X) && !blockerFor(bin.postgres, user, R | X))) return bin;
  const nativeDir = path.resolve(bin.postgres, '..', '..');
  const pkg = JSON.parse(fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { name: string; version: string };
  const dest = path.join(CACHE_ROOT, `${pkg.name.replace('/', '+')}@${pkg.version}`);
  const cached = {
    initdb: path.join(dest, 'bin', path.basename(bin.initdb)),
    postgres: path.join(dest, 'bin', path.basename(bin.postgres)),
  };
  try {
    ensureRootDir(CACHE_ROOT);
    if (!fs.existsSync(cached.postgres)) {
      // Copied aside and renamed into place: a copy cut short is never mistaken for a whole one.
      const scratch = `${dest}.${process.pid}.${randomBytes(4).toString('hex')}`;
      fs.cpSync(nativeDir, scratch, { recursive: true, verbatimSymlinks: true });
      try {
        fs.renameSync(scratch, dest);
        log?.(`PostgreSQL binaries copied to ${dest}: the postgres user cannot reach ${nativeDir}`);
      } catch {
        fs.rmSync(scratch, { recursive: true, force: true }); // another process placed them first
      }
    }
  } catch (error) {
    throw new PlacementError(
      `the embedded PostgreSQL runs as the postgres user, which cannot reach ${nativeDir}, and copying its binaries to ${CACHE_ROOT} failed (${(error as Error).message}); install shotgen in a directory that user can enter, or set DATABASE_URL`,
    );
  }
  const blocked = blockerFor(cached.postgres, user, R | X);
  if (blocked)
    throw new PlacementError(
      `the postgres user cannot reach ${blocked}, on the way to the PostgreSQL binaries in ${dest}; allow it (chmod o+x) or set DATABASE_URL`,
    );
  return cached;
}

export interface ClusterPlace {
  /** The data directory PostgreSQL is started with (-D). */
  pgDir: string;
  /** Its unix socket directory. */
  socketDir: string;
  /** Set when the cluster lives outside DATA_DIR. */
  relocated: boolean;
}

/**
 * Where DATA_DIR's cluster is. `defaults` is the usual place, DATA_DIR/pg and its socket dir.
 * Creates the link (and the directory it points to) only when `create` is true.
 */
export function placeCluster(dataDir: string, user: OsUser | null, defaults: { pgDir: string; socketDir: string }): ClusterPlace {
  const link = defaults.pgDir;
  let st: fs.Stats | null = null;
  try {
    st = fs.lstatSync(link);
  } catch {
    // no cluster yet
  }
  if (st?.isSymbolicLink()) {
    const pgDir = path.resolve(path.dirname(link), fs.readlinkSync(link));
    return { pgDir, socketDir: path.join(path.dirname(pgDir), 'run'), relocated: true };
  }
  // DATA_DIR itself is made 0755 by prepareDirs: what matters is the way to it.
  const blocked = user ? blockerFor(path.dirname(path.resolve(dataDir)), user) : null;
  if (!blocked) return { ...defaults, relocated: false };
  if (st) {
    throw new PlacementError(
      `the embedded PostgreSQL runs as the postgres user, which cannot enter ${blocked} to reach the cluster in ${link}; move DATA_DIR to a directory it can enter, or allow it (chmod o+x ${blocked})`,
    );
  }
  let base: string;
  try {
    ensureRootDir(CLUSTERS_ROOT);
    base = path.join(CLUSTERS_ROOT, randomBytes(8).toString('hex'));
    fs.mkdirSync(base, { mode: 0o755 });
    fs.writeFileSync(path.join(base, 'DATA_DIR'), `${path.resolve(dataDir)}\n`);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(base, 'pg'), link);
  } catch (error) {
    throw new PlacementError(
      `the embedded PostgreSQL runs as the postgres user, which cannot enter ${blocked}, and placing its cluster in ${CLUSTERS_ROOT} failed (${(error as Error).message}); set DATA_DIR to a directory that user can enter, or DATABASE_URL`,
    );
  }
  return { pgDir: path.join(base, 'pg'), socketDir: path.join(base, 'run'), relocated: true };
}
