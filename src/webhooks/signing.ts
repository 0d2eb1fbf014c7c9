/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
 * "id.timestamp.body" keyed with the secret's bytes, sent as `v1,<base64>`.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** 32 random bytes: the spec asks for 24 to 64. */
export const newSecret = (): string => PREFIX + randomBytes(32).toString('base64');

export function signatureHeaders(secret: string, messageId: string, timestamp: Date, body: string): Record<string, string> {
  const seconds = String(Math.floor(timestamp.getTime() / 1000));
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${seconds}.${body}`).digest('base64');
  return { 'webhook-id': messageId, 'webhook-timestamp': seconds, 'webhook-signature': `v1,${mac}` };
}
