/**
 * Child processes of a bench run: the bare responder and the service. On a 2-core machine the
 * load generator and the server under test must not share an event loop, or each would measure
 * the other. Every child is tracked so that the run can end them all, whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export interface Child {
  name: string;
  process: ChildProcess;
  /** The first JSON line the child printed that `isReady` accepted. */
  ready: Record<string, unknown>;
  /** Warn/error log lines (pino JSON, level >= 40) the child wrote while running. */
  problems: string[];
  stop(): Promise<number | string | null>;
}

const live = new Set<ChildProcess>();

export interface SpawnOptions {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Picks the line that says the child is ready to take requests. */
  isReady: (line: Record<string, unknown>) => boolean;
  timeoutMs?: number;
}

export async function spawnChild(opts: SpawnOptions): Promise<Child> {
  const child = spawn(process.execPath, opts.args, { env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  exited.then(
    () => live.delete(child),
    () => undefined,
  );

  const problems: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.length > 20_000) stderr = stderr.slice(-20_000);
  });

  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${opts.name} did not start within ${opts.timeoutMs ?? 60_000} ms; stderr: ${stderr.trim().slice(-2000)}`)),
      opts.timeoutMs ?? 60_000,
    );
    let started = false;
    // stdout carries the ready line and pino's JSON logs; keep reading after start for the latter.
    readline.createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return;
      }
      if (typeof line.level === 'number') {
        if (line.level >= 40) problems.push(text);
        return;
      }
      if (!started && opts.isReady(line)) {
        started = true;
        clearTimeout(timer);
        resolve(line);
      }
    });
    exited.then(
      (how) => {
        clearTimeout(timer);
        if (!started) reject(new Error(`${opts.name} exited (${how}) before it was ready; stderr: ${stderr.trim().slice(-2000)}`));
      },
      () => undefined,
    );
  });

  return {
    name: opts.name,
    process: child,
    ready,
    problems,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.signalCode ?? child.exitCode;
      child.kill('SIGTERM');
      // The service drains and closes its pool on SIGTERM; give it time, then insist.
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const how = await exited;
      clearTimeout(timer);
      return how;
    },
  };
}

/** Last-resort cleanup: every child still running gets SIGKILL (used on failure or interrupt). */
export function killAllChildren(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}
