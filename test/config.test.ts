import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', basePath: '/api/v1', databaseUrl: null, logLevel: 'info', appStoreLookupUrl: 'https://itunes.apple.com/lookup', googlePlayUrl: 'https://play.google.com', storeTimeoutMs: 10_000, llm: null });
    expect(c.dataDir).toMatch(/\/data$/);
  });

  it('reads every setting', () => {
    const c = loadConfig({ PORT: '8080', HOST: '127.0.0.1', BASE_PATH: '/v2/', DATABASE_URL: 'postgresql://u@h/db', DATA_DIR: '/tmp/x', LOG_LEVEL: 'warn', APP_STORE_LOOKUP_URL: 'http://127.0.0.1:9/lookup', GOOGLE_PLAY_URL: 'http://127.0.0.1:9/', LLM_BASE_URL: 'http://localhost:11434/v1', LLM_MODEL: 'llama3' });
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', basePath: '/v2', databaseUrl: 'postgresql://u@h/db', dataDir: '/tmp/x', logLevel: 'warn', googlePlayUrl: 'http://127.0.0.1:9', llm: { baseUrl: 'http://localhost:11434/v1', model: 'llama3', apiKey: null } });
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
});
