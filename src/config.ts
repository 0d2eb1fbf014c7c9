/**
 * Settings come from the environment only, validated once at start so that a bad value stops the
 * process with a message naming the setting instead of failing later on a request, and naming
 * every bad one at once instead of the first.
 *
 * Adding a setting: one line in SETTINGS (the variable, its kind, default and limits, from
 * src/settings.ts), one field in Config, and where the value goes in loadConfig's result.
 */
import path from 'node:path';
import { z } from 'zod';
import type { S3Settings } from './objects/s3.ts';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http/limits.ts';
import { decodeKey } from './secrets/keys.ts';
import { bool, custom, httpUrl, int, oneOf, optionalHttpUrl, optionalText, optionalUrl, text } from './settings.ts';

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
  /** Jobs one account may have running at once across all workers (fair claiming, src/queue/claim.ts). */
  accountJobConcurrency: number;
  jobLeaseMs: number;
  shutdownTimeoutMs: number;
  /** `vision` (LLM_VISION): the caption model is also shown each uploaded screen's picture. */
  llm: { baseUrl: string; model: string; apiKey: string | null; vision?: boolean } | null;
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
  /**
   * Free edits of a set (src/sets/revisions/): revisions per set and per account in any hour, previews
   * per account per minute, and previews of one account waiting or drawn at once (absent: 4).
   */
  revisions: { perSetPerHour: number; perAccountPerHour: number; previewsPerMinute: number; previewsAtOnce?: number };
  /** Master key of secrets at rest (SECRETS_KEY); null: generated into DATA_DIR when embedded, else none. */
  secretsKey: Buffer | null;
  /** Keys that only open rows sealed before a rotation (SECRETS_KEY_PREVIOUS, comma-separated). */
  secretsKeyPrevious: Buffer[];
  /** Publishing: the stores' API bases (tests point them at the fakes). */
  appStoreConnectUrl: string;
  googlePlayApiUrl: string;
  /** An S3-compatible bucket for pictures and screens; null keeps them under DATA_DIR/objects. */
  s3: S3Settings | null;
  /** Key of the pictures' signed URLs; null: one is generated once and kept in the database. */
  urlSigningSecret: string | null;
  /**
   * Where the worker may fetch a listing's screenshots from: origins, with `*.` for any subdomain.
   * The stores' image hosts by default; tests name their local fake host.
   */
  storeImageOrigins: string[];
  /** Days a finished job's pictures are kept (src/sets/retention.ts); 0 keeps them for ever. */
  jobRetentionDays: number;
}

/** One or more bad settings; `setting` names the first, `problems` every one. */
export class ConfigError extends Error {
  readonly setting: string;
  constructor(readonly problems: { setting: string; message: string }[]) {
    super(
      problems.length === 1
        ? `Invalid setting ${problems[0].setting}: ${problems[0].message}`
        : `Invalid settings:\n${problems.map((p) => `  ${p.setting}: ${p.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.setting = problems[0].setting;
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const DEFAULT_STORE_IMAGE_ORIGINS = ['https://*.mzstatic.com', 'https://play-lh.googleusercontent.com'];

const commaList = (raw: string) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The one schema: every variable the service reads, its kind, default and limits. */
const SETTINGS = z.object({
  PORT: int(3000, 0, 65535),
  HOST: text('0.0.0.0'),
  BASE_PATH: custom((raw, fail) => {
    const trimmed = raw.replace(/\/+$/, '');
    if (trimmed !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) fail(`expected a path such as /api/v1, got "${raw}"`);
    return trimmed;
  }, '/api/v1'),
  DATABASE_URL: optionalUrl(/^postgres(ql)?:\/\//, 'a postgres:// or postgresql:// URL'),
  DATA_DIR: text('./data'),
  DATABASE_POOL_SIZE: int(10, 1, 1000),
  LOG_LEVEL: oneOf(LOG_LEVELS, 'info'),
  APP_STORE_LOOKUP_URL: httpUrl('https://itunes.apple.com/lookup'),
  GOOGLE_PLAY_URL: httpUrl('https://play.google.com'),
  STORE_TIMEOUT_MS: int(10_000, 100, 120_000),
  STORE_CACHE_TTL_MS: int(600_000, 0, 86_400_000),
  WORKER_CONCURRENCY: int(4, 1, 256),
  ACCOUNT_JOB_CONCURRENCY: int(4, 1, 1024),
  JOB_LEASE_MS: int(60_000, 1_000, 3_600_000),
  SHUTDOWN_TIMEOUT_MS: int(10_000, 0, 600_000),
  PUBLIC_URL: optionalHttpUrl(),
  SIGNUP_ENABLED: bool(true),
  LLM_BASE_URL: optionalHttpUrl(),
  LLM_MODEL: optionalText(),
  LLM_API_KEY: optionalText(),
  LLM_VISION: bool(false),
  HTTP_HEADERS_TIMEOUT_MS: int(DEFAULT_HTTP_LIMITS.headersTimeoutMs, 100, 600_000),
  HTTP_REQUEST_TIMEOUT_MS: int(DEFAULT_HTTP_LIMITS.requestTimeoutMs, 100, 3_600_000),
  // Above the 30 s of the longest `Prefer: wait`, during which the socket is silent.
  HTTP_IDLE_TIMEOUT_MS: int(DEFAULT_HTTP_LIMITS.idleTimeoutMs, 31_000, 3_600_000),
  HTTP_MAX_CONNECTIONS: int(DEFAULT_HTTP_LIMITS.maxConnections, 1, 1_000_000),
  RATE_LIMIT_PER_SECOND: int(20, 1, 1_000_000_000),
  AUTH_FAILURES_PER_MINUTE: int(20, 1, 1_000_000),
  REDIS_URL: optionalUrl(/^rediss?:\/\//, 'a redis:// or rediss:// URL'),
  REDIS_KEY_PREFIX: text('shotgen:rl:'),
  // false (the socket's address is the client), true (the left-most X-Forwarded-For; only behind
  // a proxy that overwrites it), a hop count, or the proxies' addresses/CIDRs, comma-separated.
  TRUST_PROXY: custom<boolean | number | string[]>((raw, fail) => {
    const v = raw.trim();
    if (v === 'false') return false;
    if (v === 'true') return true;
    if (/^\d+$/.test(v)) return Number(v);
    const list = commaList(v);
    if (!list.every((a) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a)))
      fail(`expected true, false, a hop count or addresses/CIDRs, got "${raw}"`);
    return list;
  }, false),
  METRICS_TOKEN: optionalText(),
  WEBHOOK_ALLOW_HTTP: bool(false),
  WEBHOOK_ALLOW_PRIVATE: bool(false),
  S3_BUCKET: optionalText(),
  S3_ENDPOINT: optionalHttpUrl(),
  S3_REGION: text('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText(),
  S3_SECRET_ACCESS_KEY: optionalText(),
  S3_FORCE_PATH_STYLE: bool(false),
  URL_SIGNING_SECRET: custom<string | null>((raw, fail) => (raw.length >= 32 ? raw : fail('expected at least 32 characters')), null),
  // Origins such as https://*.mzstatic.com or http://127.0.0.1:8080, comma-separated.
  STORE_IMAGE_ORIGINS: custom((raw, fail) => {
    const list = commaList(raw);
    for (const o of list)
      if (!/^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o)) fail(`expected origins such as https://*.mzstatic.com, got "${o}"`);
    return list.length ? list : DEFAULT_STORE_IMAGE_ORIGINS;
  }, DEFAULT_STORE_IMAGE_ORIGINS),
  JOB_RETENTION_DAYS: int(30, 0, 36_500),
  REVISIONS_PER_SET_PER_HOUR: int(30, 1, 1_000_000),
  REVISIONS_PER_ACCOUNT_PER_HOUR: int(120, 1, 1_000_000),
  PREVIEWS_PER_MINUTE: int(120, 1, 1_000_000),
  PREVIEWS_AT_ONCE: int(4, 1, 1_000),
  SECRETS_KEY: custom<Buffer | null>(
    (raw, fail) => decodeKey(raw) ?? fail('expected 32 bytes in base64 (e.g. `openssl rand -base64 32`)'),
    null,
  ),
  SECRETS_KEY_PREVIOUS: custom<Buffer[]>(
    (raw, fail) => commaList(raw).map((k) => decodeKey(k) ?? fail('expected base64 32-byte keys, comma-separated')),
    [],
  ),
  APP_STORE_CONNECT_URL: httpUrl('https://api.appstoreconnect.apple.com'),
  GOOGLE_PLAY_API_URL: httpUrl('https://androidpublisher.googleapis.com'),
});

type Settings = z.output<typeof SETTINGS>;

/** Every variable the service reads (the README's configuration table names each once). */
export const SETTING_NAMES: readonly string[] = Object.keys(SETTINGS.shape);

/** Rules between settings, checked once each setting is valid on its own. */
function crossChecks(s: Settings): { setting: string; message: string }[] {
  const problems: { setting: string; message: string }[] = [];
  if ((s.LLM_BASE_URL === null) !== (s.LLM_MODEL === null))
    problems.push({
      setting: s.LLM_BASE_URL ? 'LLM_MODEL' : 'LLM_BASE_URL',
      message: 'LLM_BASE_URL and LLM_MODEL are set together or not at all',
    });
  // node refuses a header timeout longer than the whole request's.
  if (s.HTTP_HEADERS_TIMEOUT_MS > s.HTTP_REQUEST_TIMEOUT_MS)
    problems.push({
      setting: 'HTTP_HEADERS_TIMEOUT_MS',
      message: `must not exceed HTTP_REQUEST_TIMEOUT_MS (${s.HTTP_REQUEST_TIMEOUT_MS})`,
    });
  return problems;
}

export function loadConfig(env: Env = process.env): Config {
  const parsed = SETTINGS.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => ({ setting: String(i.path[0]), message: i.message })));
  const s = parsed.data;
  const problems = crossChecks(s);
  if (problems.length) throw new ConfigError(problems);

  return {
    port: s.PORT,
    host: s.HOST,
    basePath: s.BASE_PATH === '/' ? '' : s.BASE_PATH,
    databaseUrl: s.DATABASE_URL,
    dataDir: path.resolve(s.DATA_DIR),
    databasePoolSize: s.DATABASE_POOL_SIZE,
    logLevel: s.LOG_LEVEL,
    appStoreLookupUrl: s.APP_STORE_LOOKUP_URL,
    googlePlayUrl: s.GOOGLE_PLAY_URL,
    storeTimeoutMs: s.STORE_TIMEOUT_MS,
    storeCacheTtlMs: s.STORE_CACHE_TTL_MS,
    workerConcurrency: s.WORKER_CONCURRENCY,
    accountJobConcurrency: s.ACCOUNT_JOB_CONCURRENCY,
    jobLeaseMs: s.JOB_LEASE_MS,
    shutdownTimeoutMs: s.SHUTDOWN_TIMEOUT_MS,
    publicUrl: s.PUBLIC_URL,
    signupEnabled: s.SIGNUP_ENABLED,
    llm:
      s.LLM_BASE_URL && s.LLM_MODEL ? { baseUrl: s.LLM_BASE_URL, model: s.LLM_MODEL, apiKey: s.LLM_API_KEY, vision: s.LLM_VISION } : null,
    http: {
      headersTimeoutMs: s.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: s.HTTP_REQUEST_TIMEOUT_MS,
      idleTimeoutMs: s.HTTP_IDLE_TIMEOUT_MS,
      maxConnections: s.HTTP_MAX_CONNECTIONS,
    },
    rateLimit: { perSecond: s.RATE_LIMIT_PER_SECOND, authFailuresPerMinute: s.AUTH_FAILURES_PER_MINUTE },
    redisUrl: s.REDIS_URL,
    redisKeyPrefix: s.REDIS_KEY_PREFIX,
    trustProxy: s.TRUST_PROXY,
    metricsToken: s.METRICS_TOKEN,
    webhooks: { allowHttp: s.WEBHOOK_ALLOW_HTTP, allowPrivate: s.WEBHOOK_ALLOW_PRIVATE },
    s3: s.S3_BUCKET
      ? {
          bucket: s.S3_BUCKET,
          endpoint: s.S3_ENDPOINT,
          region: s.S3_REGION,
          accessKeyId: s.S3_ACCESS_KEY_ID,
          secretAccessKey: s.S3_SECRET_ACCESS_KEY,
          forcePathStyle: s.S3_FORCE_PATH_STYLE,
        }
      : null,
    urlSigningSecret: s.URL_SIGNING_SECRET,
    storeImageOrigins: s.STORE_IMAGE_ORIGINS,
    jobRetentionDays: s.JOB_RETENTION_DAYS,
    revisions: {
      perSetPerHour: s.REVISIONS_PER_SET_PER_HOUR,
      perAccountPerHour: s.REVISIONS_PER_ACCOUNT_PER_HOUR,
      previewsPerMinute: s.PREVIEWS_PER_MINUTE,
      previewsAtOnce: s.PREVIEWS_AT_ONCE,
    },
    secretsKey: s.SECRETS_KEY,
    secretsKeyPrevious: s.SECRETS_KEY_PREVIOUS,
    appStoreConnectUrl: s.APP_STORE_CONNECT_URL,
    googlePlayApiUrl: s.GOOGLE_PLAY_API_URL,
  };
}
