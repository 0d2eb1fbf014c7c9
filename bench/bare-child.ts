/**
 * The baseline: a bare node:http server answering a small JSON body, run in its own process like
 * the service so that it never shares a core's event loop with the load generator.
 *
 * Usage: node --import tsx bench/bare-child.ts. Prints {"port": n} once listening; ends on SIGTERM.
 */
import http from 'node:http';

// About the size of GET /account's answer, so that the two differ in work, not in bytes.
const BODY = JSON.stringify({
  id: 'acc_01JD2ZK5T8Q3W4E5R6T7Y8U9AB',
  name: 'Bench account',
  plan: 'scale',
  credits: { allowance: 10000, used: 0, remaining: 10000, resetsAt: '2026-12-01T00:00:00Z' },
});

// `?bytes=N`: a JSON body of exactly N bytes, for comparing with a larger answer byte for byte.
const sized = new Map<number, string>();
function bodyOf(url: string | undefined): string {
  const bytes = Number(/[?&]bytes=(\d+)/.exec(url ?? '')?.[1] ?? 0);
  if (bytes <= BODY.length) return BODY;
  let body = sized.get(bytes);
  if (!body) {
    body = JSON.stringify({ pad: 'x'.repeat(bytes - 10) });
    sized.set(bytes, body);
  }
  return body;
}

const server = http.createServer((req, res) => {
  const body = bodyOf(req.url);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});

process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
