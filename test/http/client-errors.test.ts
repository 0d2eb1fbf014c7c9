import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';
import { connect, parseResponse } from '../support/raw-socket.ts';

describe('requests refused before routing answer problem+json too', () => {
  let h: TestApp;
  let port: number;
  beforeEach(async () => {
    h = await createTestApp();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as { port: number }).port;
  });
  afterEach(async () => h.close());

  const send = async (raw: string) => {
    const c = await connect(port);
    c.write(raw);
    const res = parseResponse(await c.closed);
    const body = JSON.parse(res.body);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(body.requestId).toBe(res.headers['x-request-id']);
    expect(body.type).toMatch(/^https:\/\//);
    return { ...res, json: body };
  };

  it('400 bad_request for an unknown or lower-case method and for two Content-Length headers', async () => {
    expect((await send('FROB /healthz HTTP/1.1\r\nHost: x\r\n\r\n')).json).toMatchObject({ status: 400, code: 'bad_request' });
    expect((await send(`get /api/v1/public/v1/account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.key}\r\n\r\n`)).json).toMatchObject({
      status: 400,
      code: 'bad_request',
    });
    const twice = await send(
      'POST /api/v1/public/v1/apps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    );
    expect([twice.status, twice.json.code]).toEqual([400, 'bad_request']);
  });

  it('431 headers_too_large for headers over the limit', async () => {
    const res = await send(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect([res.status, res.json.code]).toEqual([431, 'headers_too_large']);
  });

  it('405 method_not_allowed for CONNECT, instead of silence', async () => {
    const res = await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect([res.status, res.json.code, res.headers.allow]).toEqual([405, 'method_not_allowed', 'GET, POST, HEAD']);
  });

  it('401 ambiguous_credentials for two Authorization headers, even with the same valid key', async () => {
    const c = await connect(port);
    c.write(
      `GET /api/v1/public/v1/account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.key}\r\nAuthorization: Bearer ${h.key}\r\nConnection: close\r\n\r\n`,
    );
    const res = parseResponse(await c.closed);
    expect([res.status, JSON.parse(res.body).code, res.headers['www-authenticate']]).toEqual([401, 'ambiguous_credentials', 'Bearer']);
    // One header is still fine.
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth })).statusCode).toBe(200);
    expectProblem(
      await h.app.inject({
        method: 'GET',
        url: '/api/v1/public/v1/account',
        headers: { authorization: [`Bearer ${h.key}`, 'Bearer sk_live_other'] as unknown as string },
      }),
      401,
      'ambiguous_credentials',
    );
  });
});
