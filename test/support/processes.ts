/** Run `shotgen` as a real child process, the way an operator or a deployment would. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { scaled } from './timing.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/shotgen.js');

export interface Child {
  proc: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves once the output contains `text`. */
  printed(text: string, timeoutMs?: number): Promise<void>;
  /**
   * `serve --json`: the announcement ({ address, role }, the one JSON line without a log level),
   * once /readyz at that address answers 200. A log line that happens to name an address is not it.
   */
  ready(timeoutMs?: number): Promise<{ address: string; role: string }>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function shotgen(args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const gone = () => proc.exitCode !== null || proc.signalCode !== null;
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    proc,
    output: () => out,
    exited,
    async printed(text, timeoutMs = 20_000) {
      const deadline = Date.now() + scaled(timeoutMs);
      while (!out.includes(text)) {
        if (Date.now() > deadline || gone()) throw new Error(`never printed ${text}: ${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async ready(timeoutMs = 30_000) {
      const deadline = Date.now() + scaled(timeoutMs);
      let announced: { address: string; role: string } | undefined;
      for (;;) {
        announced ??= announcement(out);
        // Listening is not yet ready: /readyz says the database answers this process too.
        if (announced && (await readyz(announced.address))) return announced;
        if (Date.now() > deadline || gone()) throw new Error(`never ready (announced: ${JSON.stringify(announced)}): ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

function announcement(out: string): { address: string; role: string } | undefined {
  for (const line of out.split('\n')) {
    if (!line.startsWith('{') || !line.includes('"address"')) continue;
    try {
      const parsed = JSON.parse(line) as { address?: unknown; role?: unknown; level?: unknown };
      if (typeof parsed.address === 'string' && typeof parsed.role === 'string' && parsed.level === undefined)
        return { address: parsed.address, role: parsed.role };
    } catch {
      // a line still being written, or not JSON
    }
  }
  return undefined;
}

async function readyz(address: string): Promise<boolean> {
  try {
    const res = await fetch(`${address}/readyz`, { signal: AbortSignal.timeout(scaled(2_000)) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}
