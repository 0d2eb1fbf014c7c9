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

/**
 * Query parameters that are credentials: a signed picture URL's `sig` is a bearer token for 7 days.
 * Named as the server reads them, after percent-decoding (`%73ig` is `sig` to the query parser, and
 * the signed-URL check accepts it), and case-folded on top, so that `SIG` or `%53IG`, which the
 * check refuses but which still hold a client's signature, stay out of the logs too.
 */
const SECRET_PARAMS = new Set(['sig']);

/** Percent-decoding that never throws: a malformed sequence decodes what it can, byte by byte. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** A parameter's name as it is compared: `+` as space, decoded (twice-encoded too), NFKC, lower case. */
function foldedName(raw: string): string {
  let name = raw.replaceAll('+', ' ');
  for (let i = 0; i < 3 && name.includes('%'); i++) name = percentDecoded(name);
  return name.normalize('NFKC').toLowerCase();
}

/**
 * A URL as a log line may show it: every credential parameter's value censored, whatever the
 * spelling of its name (S3 keeps X-Amz-Signature out of its access logs for the same reason);
 * `expires` stays, it says which link was used without granting it.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const hash = url.indexOf('#', start);
  const end = hash === -1 ? url.length : hash;
  const query = url
    .slice(start + 1, end)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq !== -1 && SECRET_PARAMS.has(foldedName(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, start + 1)}${query}${url.slice(end)}`;
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
