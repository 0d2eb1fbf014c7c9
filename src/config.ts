/**
 * Settings come from the environment only, validated once at start so that a bad value stops the
 * process with a message naming the setting instead of failing later on a request.
 */
import path from 'node:path';
import type { S3Settings } from './objects/s3.ts';

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
  /** The origin people reach the service at; https makes the dashboard's cookies Secure. */
  publicUrl: string | null;
  /** Whether anyone may create an account on the dashboard's sign-up page. */
  signupEnabled: boolean;
  http: HttpLimits;
  rateLimit: { perSecond: number; authFailuresPerMinute: number };
  /** Shared rate-limit counters across processes; null keeps them in this process's memory. */
  redisUrl: string | null;
  /** Prefix of every rate-limit key in Redis (processes that share limits share it). */
  redisKeyPrefix: string;
  /** Fastify's trustProxy: whether (and which) X-Forwarded-For names the client. */
  trustProxy: boolean | number | string[];
  /** Bearer token /metrics requires; null leaves it open. */
  metricsToken: string | null;
  /** Webhook URLs: plain http, and loopback/private/link-local addresses, for local use and tests only. */
  webhooks: { allowHttp: boolean; allowPrivate: boolean };
  /** An S3-compatible bucket for pictures and screens; null keeps them under DATA_DIR/objects. */
  s3: S3Settings | null;
  /** Key of the pictures' signed URLs; null: one is generated once and kept in the database. */
  urlSigningSecret: string | null;
  /**
   * Where the worker may fetch a listing's screenshots from: origins, with `*.` for any subdomain.
   * The stores' image hosts by default; tests name their local fake host.
   */
  storeImageOrigins: string[];
  /** Days a finished job's pictures are kept (src/pictures/retention.ts); 0 keeps them for ever. */
  jobRetentionDays: number;
}

/** What one client may hold of the server (src/http/server.ts applies them). */
export interface HttpLimits {
  /** Time to receive a request's headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included (not the time to answer it). */
  requestTimeoutMs: number;
  /** A socket with no traffic for this long is closed, also while it waits for an answer. */
  idleTimeoutMs: number;
  /** Open connections at most; more are closed on arrival. */
  maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 60_000,
  maxConnections: 10_000,
};

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
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

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1|yes)$/i.test(raw.trim())) return true;
  if (/^(false|0|no)$/i.test(raw.trim())) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

/**
 * TRUST_PROXY: unset or `false` (the socket's address is the client), `true` (the left-most
 * X-Forwarded-For address; only behind a proxy that overwrites it), a hop count, or the proxies'
 * addresses/CIDRs, comma-separated.
 */
function trustProxy(raw: string | undefined): boolean | number | string[] {
  const v = raw?.trim() ?? '';
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!list.every((a) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a)))
    throw new ConfigError('TRUST_PROXY', `expected true, false, a hop count or addresses/CIDRs, got "${raw}"`);
  return list;
}

export const DEFAULT_STORE_IMAGE_ORIGINS = ['https://*.mzstatic.com', 'https://play-lh.googleusercontent.com'];

/** STORE_IMAGE_ORIGINS: comma-separated origins such as https://*.mzstatic.com or http://127.0.0.1:8080. */
function storeImageOrigins(raw: string | undefined): string[] {
  if (!raw?.trim()) return DEFAULT_STORE_IMAGE_ORIGINS;
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const o of list) {
    if (!/^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o))
      throw new ConfigError('STORE_IMAGE_ORIGINS', `expected origins such as https://*.mzstatic.com, got "${o}"`);
  }
  return list;
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

  const http: HttpLimits = {
    headersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.headersTimeoutMs, 100, 600_000),
    requestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.requestTimeoutMs, 100, 3_600_000),
    // Above the 30 s of the longest `Prefer: wait`, during which the socket is silent.
    idleTimeoutMs: int(env, 'HTTP_IDLE_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.idleTimeoutMs, 31_000, 3_600_000),
    maxConnections: int(env, 'HTTP_MAX_CONNECTIONS', DEFAULT_HTTP_LIMITS.maxConnections, 1, 1_000_000),
  };
  // node refuses a header timeout longer than the whole request's.
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', `must not exceed HTTP_REQUEST_TIMEOUT_MS (${http.requestTimeoutMs})`);
  }

  const redisUrl = env.REDIS_URL ? env.REDIS_URL : null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('REDIS_URL', 'expected a redis:// or rediss:// URL');

  const s3Bucket = env.S3_BUCKET || null;
  const s3: S3Settings | null = s3Bucket
    ? {
        bucket: s3Bucket,
        endpoint: env.S3_ENDPOINT ? httpUrl(env, 'S3_ENDPOINT', '') : null,
        region: str(env, 'S3_REGION', 'us-east-1'),
        accessKeyId: env.S3_ACCESS_KEY_ID || null,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
        forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
      }
    : null;
  const urlSigningSecret = env.URL_SIGNING_SECRET || null;
  if (urlSigningSecret !== null && urlSigningSecret.length < 32)
    throw new ConfigError('URL_SIGNING_SECRET', 'expected at least 32 characters');

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
    publicUrl: env.PUBLIC_URL ? httpUrl(env, 'PUBLIC_URL', '') : null,
    signupEnabled: bool(env, 'SIGNUP_ENABLED', true),
    llm: llmBaseUrl && llmModel ? { baseUrl: llmBaseUrl, model: llmModel, apiKey: env.LLM_API_KEY || null } : null,
    http,
    rateLimit: {
      perSecond: int(env, 'RATE_LIMIT_PER_SECOND', 20, 1, 1_000_000_000),
      authFailuresPerMinute: int(env, 'AUTH_FAILURES_PER_MINUTE', 20, 1, 1_000_000),
    },
    redisUrl,
    redisKeyPrefix: str(env, 'REDIS_KEY_PREFIX', 'shotgen:rl:'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    metricsToken: env.METRICS_TOKEN ? env.METRICS_TOKEN : null,
    webhooks: { allowHttp: bool(env, 'WEBHOOK_ALLOW_HTTP', false), allowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false) },
    s3,
    urlSigningSecret,
    storeImageOrigins: storeImageOrigins(env.STORE_IMAGE_ORIGINS),
    jobRetentionDays: int(env, 'JOB_RETENTION_DAYS', 30, 0, 36_500),
  };
}
