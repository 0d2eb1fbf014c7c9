import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';

/**
 * Keys never reach the logs, whatever a serializer or a debug statement includes. `rawPacket` is
 * what node's HTTP parser attaches to a refused request: its raw bytes, headers and keys included.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.cookie',
  'headers.cookie',
  'password',
  '*.password',
  'key',
  '*.key',
  'rawPacket',
  '*.rawPacket',
  '*.*.rawPacket',
  'req.rawHeaders',
  'rawHeaders',
  '*.rawHeaders',
];

/** Query parameters that are credentials: a signed picture URL is a bearer token for 7 days. */
const SECRET_QUERY = /([?&]sig=)[^&#]*/gi;

/**
 * A URL as a log line may show it: `sig` censored (S3 keeps X-Amz-Signature out of its access
 * logs for the same reason); `expires` stays, it says which link was used without granting it.
 */
export function redactUrl(url: string): string {
  return url.includes('sig=') ? url.replace(SECRET_QUERY, '$1[redacted]') : url;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer, with the URL redacted; it takes precedence over Fastify's own. */
function requestSerializer(req: LoggedRequest) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { req: requestSerializer } },
    destination,
  );
}
