/**
 * Settings come from the environment only, validated once at start so that a bad value stops the
 * process with a message naming the setting instead of failing later on a request.
 */
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Mount path of the API, e.g. "/api/v1"; "" mounts at the root. */
  basePath: string;
  /** External PostgreSQL; null means the embedded server in dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  databasePoolSize: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  appStoreLookupUrl: string;
  googlePlayUrl: string;
  storeTimeoutMs: number;
  storeCacheTtlMs: number;
  workerConcurrency: number;
  jobLeaseMs: number;
  shutdownTimeoutMs: number;
  llm: { baseUrl: string; model: string; apiKey: string | null } | null;
}

export class ConfigError extends Error {
  constructor(readonly setting: string, message: string) {
    super(`Invalid setting ${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(name, `expected ${min} to ${max}, got ${n}`);
  return n;
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = str(env, name, fallback);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `expected an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

export function loadConfig(env: Env = process.env): Config {
  let basePath = str(env, 'BASE_PATH', '/api/v1').replace(/\/+$/, '');
  if (basePath !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath)) {
    throw new ConfigError('BASE_PATH', `expected a path such as /api/v1, got "${env.BASE_PATH}"`);
  }
  if (basePath === '/') basePath = '';

  const databaseUrl = env.DATABASE_URL ? env.DATABASE_URL : null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'expected a postgres:// or postgresql:// URL');
  }

  const logLevel = str(env, 'LOG_LEVEL', 'info');
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

  const llmBaseUrl = env.LLM_BASE_URL ? httpUrl(env, 'LLM_BASE_URL', '') : null;
  const llmModel = env.LLM_MODEL || null;
  if ((llmBaseUrl === null) !== (llmModel === null)) {
    throw new ConfigError(llmBaseUrl ? 'LLM_MODEL' : 'LLM_BASE_URL', 'LLM_BASE_URL and LLM_MODEL are set together or not at all');
  }

  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: str(env, 'HOST', '0.0.0.0'),
    basePath,
    databaseUrl,
    dataDir: path.resolve(str(env, 'DATA_DIR', './data')),
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    logLevel: logLevel as Config['logLevel'],
    appStoreLookupUrl: httpUrl(env, 'APP_STORE_LOOKUP_URL', 'https://itunes.apple.com/lookup'),
    googlePlayUrl: httpUrl(env, 'GOOGLE_PLAY_URL', 'https://play.google.com'),
    storeTimeoutMs: int(env, 'STORE_TIMEOUT_MS', 10_000, 100, 120_000),
    storeCacheTtlMs: int(env, 'STORE_CACHE_TTL_MS', 600_000, 0, 86_400_000),
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', 4, 1, 256),
    jobLeaseMs: int(env, 'JOB_LEASE_MS', 60_000, 1_000, 3_600_000),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    llm: llmBaseUrl && llmModel ? { baseUrl: llmBaseUrl, model: llmModel, apiKey: env.LLM_API_KEY || null } : null,
  };
}
