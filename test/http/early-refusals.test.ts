/**
 * A refusal answered before the body is read (413 over the size limit, 401 for a bad key) must
 * reach the client as that answer, not as a reset connection (EPIPE). The clients run in a child
 * process, as they would in production: in this process the server's event loop is the client's
 * too, and reads every byte before anything closes, which hides the reset.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { insertApp } from '../support/fixtures.ts';
import { connect, parseResponse } from '../support/raw-socket.ts';
import { MAX_SCREEN_BYTES } from '../../src/screens/decode.ts';
import { DRAIN_MAX_BYTES } from '../../src/http/problems.ts';

const CLIENT = path.resolve(import.meta.dirname, '../../clients/typescript/src/index.ts');

/** Posts `times` bodies of `bytes` with Node's fetch and with @shotgen/client; what each got, in order. */
const CHILD = `
const [url, apiKey, bytes, times, clientPath] = process.argv.slice(1);
const { createShotgenClient, ShotgenError } = await import(clientPath);
const outcomes = [];
for (let i = 0; i < Number(times); i++) {
  try {
    const res = await fetch(url, { method: 'POST', body: Buffer.alloc(Number(bytes)), headers: { authorization: 'Bearer ' + apiKey, 'content-type': 'image/png' } });
    outcomes.push({ via: 'fetch', status: res.status, type: res.headers.get('content-type').split(';')[0], code: (await res.json()).code });
  } catch (e) {
    outcomes.push({ via: 'fetch', thrown: e.cause?.code ?? e.message });
  }
}
const base = url.slice(0, url.indexOf('/public/v1/'));
const appId = url.split('/')[url.split('/').indexOf('apps') + 1];
const shotgen = createShotgenClient({ baseUrl: base, apiKey, retry: false });
for (let i = 0; i < Number(times); i++) {
  try {
    await shotgen.uploadScreen(appId, new Uint8Array(Number(bytes)), { contentType: 'image/png' });
    outcomes.push({ via: 'client', thrown: 'nothing' });
  } catch (e) {
    outcomes.push(e instanceof ShotgenError ? { via: 'client', status: e.status, code: e.code } : { via: 'client', thrown: e.cause?.code ?? e.message });
  }
}
console.log(JSON.stringify(outcomes));
`;

function postFromChild(url: string, apiKey: string, bytes: number, times: number): Promise<object[]> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', CHILD, url, apiKey, String(bytes), String(times), CLIENT],
      { maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
    ),
  );
}

describe('a refusal sent before the body is read reaches the client', () => {
  let h: TestApp;
  let port: number;
  let screensUrl: string;
  beforeEach(async () => {
    h = await createTestApp();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as { port: number }).port;
    const appId = await insertApp(h.t.pool, h.account.id);
    screensUrl = `http://127.0.0.1:${port}/api/v1/public/v1/apps/${appId}/screens`;
  });
  afterEach(async () => h.close());

  // Before the fix about half of these threw EPIPE (a reset while the client was still writing).
  it('a screen over the size limit: 413 problem+json for fetch and payload_too_large for @shotgen/client', async () => {
    const outcomes = await postFromChild(screensUrl, h.key, MAX_SCREEN_BYTES + 1, 6);
    expect(outcomes).toEqual([
      ...Array.from({ length: 6 }, () => ({ via: 'fetch', status: 413, type: 'application/problem+json', code: 'payload_too_large' })),
      ...Array.from({ length: 6 }, () => ({ via: 'client', status: 413, code: 'payload_too_large' })),
    ]);
    const stored = await h.t.pool.query(`SELECT count(*)::int AS n FROM screens`);
    expect(stored.rows[0].n).toBe(0);
  });

  it('a bad key with a large body: 401 problem+json, not a reset', async () => {
    const outcomes = await postFromChild(screensUrl, 'sk_live_nope', 8 * 1024 * 1024, 6);
    expect(outcomes).toEqual([
      ...Array.from({ length: 6 }, () => ({ via: 'fetch', status: 401, type: 'application/problem+json', code: 'invalid_api_key' })),
      ...Array.from({ length: 6 }, () => ({ via: 'client', status: 401, code: 'invalid_api_key' })),
    ]);
  });

  it('a body announced past what is drained is not read: 413 with Connection: close, and the socket closes', async () => {
    const c = await connect(port);
    c.write(
      `POST ${new URL(screensUrl).pathname} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.key}\r\nContent-Type: image/png\r\nContent-Length: ${DRAIN_MAX_BYTES + 1}\r\n\r\n`,
    );
    c.write('x'.repeat(64 * 1024));
    // The client sends no more: only the server can end this connection.
    const res = parseResponse(await c.closed);
    expect([res.status, res.headers.connection, JSON.parse(res.body).code]).toEqual([413, 'close', 'payload_too_large']);
  });
});
