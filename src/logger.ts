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

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino({ level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
