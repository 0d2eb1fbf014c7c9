import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SETTING_NAMES } from '../src/config.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      basePath: '/api/v1',
      databaseUrl: null,
      logLevel: 'info',
      appStoreLookupUrl: 'https://itunes.apple.com/lookup',
      googlePlayUrl: 'https://play.google.com',
      storeTimeoutMs: 10_000,
      llm: null,
    });
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.http).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, idleTimeoutMs: 60_000, maxConnections: 10_000 });
  });

  it('webhooks: https and public addresses only unless WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE', () => {
    expect(loadConfig({}).webhooks).toEqual({ allowHttp: false, allowPrivate: false });
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: '1' }).webhooks).toEqual({
      allowHttp: true,
      allowPrivate: true,
    });
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'sometimes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_HTTP: 'yes please' })).toThrow(/WEBHOOK_ALLOW_HTTP/);
  });

  it('reads the HTTP limits', () => {
    const c = loadConfig({
      HTTP_HEADERS_TIMEOUT_MS: '5000',
      HTTP_REQUEST_TIMEOUT_MS: '20000',
      HTTP_IDLE_TIMEOUT_MS: '45000',
      HTTP_MAX_CONNECTIONS: '500',
    });
    expect(c.http).toEqual({ headersTimeoutMs: 5_000, requestTimeoutMs: 20_000, idleTimeoutMs: 45_000, maxConnections: 500 });
  });

  it('reads every setting', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      BASE_PATH: '/v2/',
      DATABASE_URL: 'postgresql://u@h/db',
      DATA_DIR: '/tmp/x',
      LOG_LEVEL: 'warn',
      APP_STORE_LOOKUP_URL: 'http://127.0.0.1:9/lookup',
      GOOGLE_PLAY_URL: 'http://127.0.0.1:9/',
      LLM_BASE_URL: 'http://localhost:11434/v1',
      LLM_MODEL: 'llama3',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      basePath: '/v2',
      databaseUrl: 'postgresql://u@h/db',
      dataDir: '/tmp/x',
      logLevel: 'warn',
      googlePlayUrl: 'http://127.0.0.1:9',
      llm: { baseUrl: 'http://localhost:11434/v1', model: 'llama3', apiKey: null },
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ BASE_PATH: 'api v1' }, 'BASE_PATH'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ APP_STORE_LOOKUP_URL: 'ftp://x' }, 'APP_STORE_LOOKUP_URL'],
    [{ GOOGLE_PLAY_URL: 'not a url' }, 'GOOGLE_PLAY_URL'],
    [{ STORE_TIMEOUT_MS: '-1' }, 'STORE_TIMEOUT_MS'],
    [{ WORKER_CONCURRENCY: '0' }, 'WORKER_CONCURRENCY'],
    [{ LLM_BASE_URL: 'http://x' }, 'LLM_MODEL'],
    [{ HTTP_HEADERS_TIMEOUT_MS: '40000' }, 'HTTP_HEADERS_TIMEOUT_MS'],
    [{ HTTP_IDLE_TIMEOUT_MS: '1000' }, 'HTTP_IDLE_TIMEOUT_MS'],
    [{ HTTP_MAX_CONNECTIONS: '0' }, 'HTTP_MAX_CONNECTIONS'],
  ])('rejects %j naming %s', (env, setting) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).setting).toBe(setting);
    expect((error as Error).message).toContain(setting);
  });

  it('names every bad setting at once, and the rules between settings once each is valid', () => {
    let error: ConfigError | null = null;
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', WEBHOOK_ALLOW_HTTP: 'maybe', REDIS_URL: 'http://x', HTTP_MAX_CONNECTIONS: '0' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems.map((p) => p.setting).sort()).toEqual([
      'HTTP_MAX_CONNECTIONS',
      'LOG_LEVEL',
      'PORT',
      'REDIS_URL',
      'WEBHOOK_ALLOW_HTTP',
    ]);
    expect(error!.message.split('\n')).toHaveLength(6);
    expect(error!.message).toContain('PORT: expected a whole number, got "eighty"');
    expect(() => loadConfig({ LLM_BASE_URL: 'http://x', HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      /LLM_MODEL: LLM_BASE_URL and LLM_MODEL[\s\S]*HTTP_HEADERS_TIMEOUT_MS: must not exceed/,
    );
  });

  it('the README configuration table names every setting once, and nothing else', () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, '../README.md'), 'utf8');
    const section = readme.split('\n## Configuration\n')[1].split('\n## ')[0];
    const documented = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]));
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([]);
    expect([...documented].sort()).toEqual([...SETTING_NAMES].sort());
  });
});
