/** Run `shotgen` as a real child process, the way an operator or a deployment would. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve(import.meta.dirname, '../../bin/shotgen.js');

export interface Child {
  proc: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves once the output contains `text`. */
  printed(text: string, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function shotgen(args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    proc,
    output: () => out,
    exited,
    async printed(text, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!out.includes(text)) {
        if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`never printed ${text}: ${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}
