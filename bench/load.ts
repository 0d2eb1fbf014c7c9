/** Load generation: autocannon for the read scenarios, an exact counting client for creates. */
import autocannon from 'autocannon';
import http from 'node:http';

export interface LoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses with another status than expected, plus connection errors and timeouts. */
  failures: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  /** Responses of any status, and the measured run's wall time. */
  responses: number;
  elapsedS: number;
}

export interface CannonOptions {
  url: string;
  durationS: number;
  connections?: number;
  headers?: Record<string, string>;
}

export async function cannon(opts: CannonOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 50,
    pipelining: 1,
    duration: opts.durationS,
    headers: opts.headers,
  });
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0;
  return {
    // Responses per second over the whole run (the per-second histogram's mean drops partial seconds).
    reqPerSec: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    statuses,
    responses: Object.values(statuses).reduce((a, b) => a + b, 0),
    elapsedS: result.duration,
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface PostLoadOptions {
  url: string;
  durationS: number;
  connections?: number;
  /** One request shape for every connection... */
  headers?: Record<string, string>;
  body?: string;
  /** ...or several, spread over the connections. */
  targets?: { headers: Record<string, string>; body: string }[];
  expectStatus: number;
  /** Called with each expected response's parsed body. */
  onExpected?: (body: unknown) => void;
}

/**
 * A fixed-duration POST load whose every request is accounted for: at the deadline no new request
 * starts and the ones in flight are awaited. autocannon instead destroys its sockets at the end, so
 * requests the server still commits would have no counted response, and "responses == rows" could
 * not be checked exactly.
 */
export async function postLoad(opts: PostLoadOptions): Promise<LoadResult & { expected: number; total: number }> {
  const connections = opts.connections ?? 50;
  const url = new URL(opts.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  // Connection i sends targets[i % n]: several accounts load the service at once.
  const targets = (opts.targets ?? [{ headers: opts.headers ?? {}, body: opts.body ?? '' }]).map((t) => {
    const body = Buffer.from(t.body);
    return { body, headers: { ...t.headers, 'content-type': 'application/json', 'content-length': String(body.length) } };
  });
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let errors = 0;
  let expected = 0;

  const once = ({ headers, body }: (typeof targets)[number]) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.request({ agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          latencies.push(performance.now() - started);
          const code = res.statusCode ?? 0;
          statuses[code] = (statuses[code] ?? 0) + 1;
          if (code === opts.expectStatus) {
            expected++;
            opts.onExpected?.(JSON.parse(Buffer.concat(chunks).toString()));
          }
          resolve();
        });
        res.on('error', () => {
          errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });

  const startedAt = performance.now();
  const deadline = startedAt + opts.durationS * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, i) => {
      while (performance.now() < deadline) await once(targets[i % targets.length]);
    }),
  );
  const elapsedS = (performance.now() - startedAt) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const total = Object.values(statuses).reduce((s, n) => s + n, 0);
  return {
    reqPerSec: expected / elapsedS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    failures: total - expected + errors,
    statuses,
    responses: total,
    expected,
    total,
    elapsedS,
  };
}
