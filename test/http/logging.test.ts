import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { startService, type Service } from '../../src/service.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { connect, parseResponse } from '../support/raw-socket.ts';
import { UrlSigner } from '../../src/sets/signed-urls.ts';
import { redactUrl } from '../../src/logger.ts';

// The service's URL-signing secret, given rather than generated: a generated one is sealed under
// the process's keyring, which the test would have to open.
const SIGNING_SECRET = 's'.repeat(43);

describe('logs', () => {
  let t: TestDatabase;
  let service: Service;
  let lines: string[];
  beforeEach(async () => {
    t = await createTestDatabase();
    lines = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'trace', URL_SIGNING_SECRET: SIGNING_SECRET });
    service = await startService(config, {
      role: 'api',
      logger: createLogger(config, sink),
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
    });
  });
  afterEach(async () => {
    await service.close();
    await t.drop();
  });

  it('never contain an API key, at any level, on success or failure', async () => {
    const { key } = await accountWithKey(t.pool);
    const base = `${service.address}/api/v1/public/v1`;
    await fetch(`${base}/account`, { headers: { authorization: `Bearer ${key}` } });
    await fetch(`${base}/account`, { headers: { 'x-api-key': key } });
    await fetch(`${base}/account`, { headers: { 'x-api-key': `${key}x` } });
    await fetch(`${base}/screenshots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{bad',
    });
    service.server!.log.info({ headers: { authorization: `Bearer ${key}`, 'x-api-key': key } }, 'a careless debug line');
    // Requests the HTTP parser refuses: node attaches their raw bytes (key included) to the error.
    const port = new URL(service.address!).port;
    for (const raw of [
      `get /api/v1/public/v1/account HTTP/1.1\r\nAuthorization: Bearer ${key}\r\n\r\n`,
      `GET /api/v1/public/v1/account HTTP/1.1\r\nx-api-key: ${key}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n`,
    ]) {
      const c = await connect(Number(port));
      c.write(raw);
      expect(parseResponse(await c.closed).status).toBe(400);
    }
    const parserError = Object.assign(new Error('Parse Error: Invalid method encountered'), {
      code: 'HPE_INVALID_METHOD',
      rawPacket: Buffer.from(`get / HTTP/1.1\r\nx-api-key: ${key}\r\n`),
    });
    service.server!.log.trace({ err: parserError }, 'a careless trace line');
    service.server!.log.trace({ error: { rawPacket: key } }, 'another');
    const all = lines.join('');
    expect(lines.length).toBeGreaterThan(4);
    expect(all).toContain('[redacted]');
    expect(all).not.toContain(key.slice(8));
    expect(all).toContain('request refused before routing');
    expect(all).not.toContain('rawPacket":{');
  });

  it('show a signed download without its signature (a bearer credential for 7 days), keeping its expiry', async () => {
    const signer = new UrlSigner(SIGNING_SECRET);
    const signed = signer.sign('/api/v1/public/v1/jobs/job_0000000000000000000000/slides/1.png', new Date());
    const sig = new URL(signed, 'http://x').searchParams.get('sig')!;
    expect(sig).toHaveLength(43);
    await fetch(`${service.address}${signed}`);
    await fetch(`${service.address}${signed.replace('?', '?a=1&')}&b=2`);
    const requestLines = lines.filter((l) => l.includes('/slides/1.png'));
    expect(requestLines.length).toBeGreaterThanOrEqual(2);
    const all = lines.join('');
    expect(all).not.toContain(sig);
    expect(all).toContain('sig=[redacted]');
    expect(all).toMatch(/expires=\d+/);
  });

  it('never show a signature under another spelling of its name: SIG, %73ig, %53IG', async () => {
    const signed = new UrlSigner(SIGNING_SECRET).sign('/api/v1/public/v1/jobs/job_0000000000000000000000/slides/1.png', new Date());
    const sig = new URL(signed, 'http://x').searchParams.get('sig')!;
    const statuses: Record<string, number> = {};
    for (const name of ['sig', 'SIG', '%73ig', '%53IG']) {
      const res = await fetch(`${service.address}${signed.replace('&sig=', `&${name}=`)}`);
      statuses[name] = res.status;
    }
    // `%73ig` is `sig` once decoded, as the query parser reads every name: it passes the check like
    // `sig` (the job does not exist: 404). `SIG` is another name, so no signature: 403.
    expect(statuses).toEqual({ sig: 404, SIG: 403, '%73ig': 404, '%53IG': 403 });
    const requestLines = lines.filter((l) => l.includes('/slides/1.png'));
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    expect(lines.join('')).not.toContain(sig);
  });
});

describe('redactUrl', () => {
  it('censors every sig parameter and nothing else', () => {
    expect(redactUrl('/p/1.png?expires=9&sig=abc')).toBe('/p/1.png?expires=9&sig=[redacted]');
    expect(redactUrl('/p?sig=a&x=1&SIG=b#f')).toBe('/p?sig=[redacted]&x=1&SIG=[redacted]#f');
    expect(redactUrl('/p?signature=a&design=b')).toBe('/p?signature=a&design=b');
    expect(redactUrl('/account')).toBe('/account');
  });

  it('knows the parameter by its decoded, case-folded name, as sent', () => {
    expect(redactUrl('/p?expires=9&SIG=abc')).toBe('/p?expires=9&SIG=[redacted]');
    expect(redactUrl('/p?%73ig=abc&%53IG=def')).toBe('/p?%73ig=[redacted]&%53IG=[redacted]');
    expect(redactUrl('/p?%2573ig=abc&s%69g=def&%EF%BD%93ig=ghi')).toBe('/p?%2573ig=[redacted]&s%69g=[redacted]&%EF%BD%93ig=[redacted]');
    // A malformed escape elsewhere in the name does not stop the decoding of the rest.
    expect(redactUrl('/p?%73ig%=abc&x=%ZZ')).toBe('/p?%73ig%=abc&x=%ZZ');
    expect(redactUrl('/p?a=sig&sig&sigs=1')).toBe('/p?a=sig&sig&sigs=1');
  });
});
