/**
 * CPU time of processes from /proc (Linux), to tell which side of a run was saturated: a bare
 * baseline limited by the load generator makes every ratio to it look better than it is, and CPU
 * per request compares the service with the bare responder independently of that.
 */
import fs from 'node:fs';
import os from 'node:os';

const TICK_MS = 1000 / 100; // USER_HZ is 100 on every Linux platform Node supports.

interface Stat {
  ppid: number;
  cpuMs: number;
}

function readStat(pid: number): Stat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may contain spaces and parentheses: split after its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
  return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
}

/** CPU ms used so far by `pid` and, with `withChildren`, its direct children (PostgreSQL backends). */
export function cpuMs(pid: number, withChildren = false): number | null {
  if (os.platform() !== 'linux') return null;
  const own = readStat(pid);
  if (!own) return null;
  let total = own.cpuMs;
  if (withChildren) {
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const stat = readStat(Number(name));
      if (stat?.ppid === pid) total += stat.cpuMs;
    }
  }
  return total;
}

/** Own CPU ms of this process (the load generator). */
export function selfCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export interface ThreadSched {
  /** ms the thread ran on a core. */
  runMs: number;
  /** ms it was ready to run but waited for a core (other threads, other processes). */
  waitMs: number;
}

/**
 * The scheduler's account of one thread (Linux schedstat), by default a process' main thread: the
 * service's HTTP thread. Its wait for a core is what a poll's latency holds besides the thread's
 * own work, and what a shared machine's other work adds, which no change inside the service removes.
 */
export function threadSched(pid: number, tid = pid): ThreadSched | null {
  if (os.platform() !== 'linux') return null;
  try {
    const [run, wait] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return null;
  }
}
