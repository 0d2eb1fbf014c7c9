import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { startService, type Service } from '../../src/service.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { connect, parseResponse } from '../support/raw-socket.ts';

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
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'trace' });
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
});
