/**
 * One HTTP attempt at a webhook URL, with the SSRF rules applied where they cannot be dodged: the
 * name is resolved here, every address it resolves to is checked, and the socket connects to
 * exactly the checked addresses (through the request's `lookup`), so a DNS answer that changes
 * between the check and the connection (rebinding) changes nothing. No redirects are followed,
 * the whole attempt has one deadline, and the answer's body is drained a little and dropped.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { refusedAddress, refusedUrl, type UrlRules } from './address-check.ts';
import type { AttemptResult } from './deliveries.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Name to addresses; tests inject one so that a made-up name can point at 127.0.0.1. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface SendOptions extends UrlRules {
  resolve: Resolver;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Read at most this much of an answer before hanging up: nothing of it is kept. */
const DRAIN_BYTES = 16 * 1024;

class RefusedAddressError extends Error {}

function guardedLookup(resolve: Resolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((found) => {
        if (found.length === 0) throw new Error(`${hostname} has no address`);
        if (!allowPrivate) {
          // Every address, not only the one used: the connection may fall back to any of them.
          for (const a of found) {
            const why = refusedAddress(a.address);
            if (why) throw new RefusedAddressError(`${hostname} resolves to ${why} (${a.address}); refused`);
          }
        }
        const usable = options.family ? found.filter((a) => a.family === options.family) : found;
        if (usable.length === 0) throw new Error(`${hostname} has no IPv${options.family} address`);
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      })
      .catch((error: Error) => callback(error as NodeJS.ErrnoException, '', 0));
  };
}

export async function postWebhook(url: string, headers: Record<string, string>, body: string, opts: SendOptions): Promise<AttemptResult> {
  // Checked again at send time: the settings may be stricter now than when the URL was saved.
  // refusedUrl judges a literal address (node connects to one without calling `lookup`); the
  // lookup below judges every address a name resolves to.
  const why = refusedUrl(url, opts);
  if (why) return { ok: false, status: null, error: `URL refused: ${why}` };
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const settle = (r: AttemptResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const request = client.request(target, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'shotgen-webhooks/1',
      },
      lookup: guardedLookup(opts.resolve, opts.allowPrivate),
      // A fresh connection per attempt: a pooled socket would skip the address check.
      agent: false,
      signal: opts.signal,
    });
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      settle(
        status >= 200 && status < 300
          ? { ok: true, status }
          : { ok: false, status, error: `answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}` },
      );
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > DRAIN_BYTES) request.destroy();
      });
      response.on('error', () => undefined);
      response.on('close', () => clearTimeout(timer));
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      settle({ ok: false, status: null, error: error instanceof RefusedAddressError ? error.message : `request failed: ${error.message}` });
    });
    request.end(body);
  });
}
