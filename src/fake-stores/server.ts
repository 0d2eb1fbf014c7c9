/**
 * The HTTP plumbing both fake stores share: a node:http server on 127.0.0.1, a route table, a record
 * of every request (for counting calls per published image) and injected faults. Each store gives
 * its own error body, so a client sees the store's real error shape, injected or not.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeCall, FakeFault, FakeHold, FakeHoldMatch } from './types.ts';

/** A refusal in the store's terms; the store's `errorBody` turns it into the answer. */
export class FakeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface Reply {
  status?: number;
  json?: unknown;
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface FakeRequest {
  method: string;
  pathname: string;
  query: URLSearchParams;
  /** The route pattern's groups, URL-decoded. */
  params: string[];
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Route {
  method: string;
  pattern: RegExp;
  handle(req: FakeRequest): Reply | Promise<Reply>;
}

export interface FakeServer {
  url: string;
  calls: FakeCall[];
  fail(fault: FakeFault): void;
  hold(match: FakeHoldMatch): FakeHold;
  close(): Promise<void>;
}

/** Screenshots are a few MB; anything far beyond is a client bug, not an upload. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The code an injected status carries, in the words both stores use for it. */
const FAULT_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'NOT_AUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMIT_EXCEEDED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

export function json(body: unknown, status = 200): Reply {
  return { status, json: body };
}

export function parseJson(req: FakeRequest, badRequest: (message: string) => FakeError): unknown {
  try {
    return JSON.parse(req.body.toString('utf8')) as unknown;
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
}

async function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even past the limit: leaving the loop early would destroy the socket before the 413.
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return size > MAX_BODY_BYTES ? null : Buffer.concat(chunks);
}

function send(res: http.ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload: Buffer | undefined;
  if (reply.bytes) {
    payload = reply.bytes;
    headers['content-type'] ??= reply.contentType ?? 'application/octet-stream';
  } else if (reply.json !== undefined) {
    payload = Buffer.from(JSON.stringify(reply.json));
    headers['content-type'] ??= reply.contentType ?? 'application/json';
  }
  if (payload) headers['content-length'] = String(payload.length);
  res.writeHead(reply.status ?? 200, headers);
  res.end(payload);
}

export interface FakeServerOptions {
  host?: string;
  port?: number;
  /** Told of each request once it is answered (for `shotgen fake-stores` to print them). */
  onCall?: (call: FakeCall) => void;
}

export async function startFakeServer(
  opts: FakeServerOptions & {
    routes: Route[];
    /** The store's error document; `pathname` lets one server answer in two shapes (an API and its OAuth endpoint). */
    errorBody(error: FakeError, pathname: string): unknown;
  },
): Promise<FakeServer> {
  const calls: FakeCall[] = [];
  const faults: (FakeFault & { left: number })[] = [];
  const holds: (FakeHoldMatch & { reach(): void; gone(): void; released: Promise<void> })[] = [];

  const takeFault = (method: string, pathAndQuery: string): FakeFault | undefined => {
    const index = faults.findIndex((f) => {
      f.path.lastIndex = 0;
      return f.method.toUpperCase() === method && f.path.test(pathAndQuery);
    });
    if (index < 0) return undefined;
    const fault = faults[index];
    if (--fault.left <= 0) faults.splice(index, 1);
    return fault;
  };

  const fromError = (error: FakeError, pathname = ''): Reply => ({
    status: error.status,
    json: opts.errorBody(error, pathname),
    headers: error.headers,
  });

  /** The route's answer, or the store's error document for its refusal. */
  const dispatch = async (method: string, url: URL, headers: http.IncomingHttpHeaders, body: Buffer): Promise<Reply> => {
    try {
      for (const route of opts.routes) {
        if (route.method !== method) continue;
        const match = route.pattern.exec(url.pathname);
        if (!match) continue;
        let params: string[];
        try {
          params = match.slice(1).map((p) => decodeURIComponent(p));
        } catch {
          throw new FakeError(400, 'BAD_REQUEST', 'The path is not valid percent-encoding.');
        }
        return await route.handle({ method, pathname: url.pathname, query: url.searchParams, params, headers, body });
      }
      throw new FakeError(404, 'NOT_FOUND', `The path ${method} ${url.pathname} does not exist.`);
    } catch (error) {
      if (error instanceof FakeError) return fromError(error, url.pathname);
      throw error;
    }
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const pathAndQuery = req.url ?? '/';
    const url = new URL(pathAndQuery, 'http://fake.invalid');
    const record = (status: number) => {
      const call = { method, path: pathAndQuery, status };
      calls.push(call);
      opts.onCall?.(call);
    };
    const answer = (reply: Reply) => {
      res.on('finish', () => record(res.statusCode));
      send(res, reply);
    };
    const body = await readBody(req);
    if (body === null) return answer(fromError(new FakeError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.'), url.pathname));
    const fault = takeFault(method, pathAndQuery);
    const held = fault
      ? -1
      : holds.findIndex((h) => h.method.toUpperCase() === method && new RegExp(h.path.source, h.path.flags).test(pathAndQuery));
    if (held >= 0) {
      // The work is done now; the answer waits for release(), and is lost if the client is gone by then.
      const [h] = holds.splice(held, 1);
      if (req.socket.destroyed) h.gone();
      else req.socket.once('close', () => h.gone());
      const reply = await dispatch(method, url, req.headers, body);
      h.reach();
      await h.released;
      if (res.destroyed || res.socket?.destroyed !== false) return record(0);
      return answer(reply);
    }
    if (!fault) return answer(await dispatch(method, url, req.headers, body));
    if (fault.after) await dispatch(method, url, req.headers, body);
    if (fault.drop) {
      record(0);
      res.socket?.destroy();
      return;
    }
    const code = FAULT_CODES[fault.status] ?? 'INJECTED_FAULT';
    answer(fromError(new FakeError(fault.status, code, `Injected fault: ${fault.status}.`, fault.headers), url.pathname));
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const pathname = new URL(req.url ?? '/', 'http://fake.invalid').pathname;
      const reply = fromError(error instanceof FakeError ? error : new FakeError(500, 'INTERNAL_ERROR', String(error)), pathname);
      if (!res.headersSent) send(res, reply);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    calls,
    fail(fault) {
      faults.push({ ...fault, left: fault.times ?? 1 });
    },
    hold(match) {
      let reach!: () => void;
      let release!: () => void;
      let gone!: () => void;
      const reached = new Promise<void>((r) => (reach = r));
      const clientGone = new Promise<void>((r) => (gone = r));
      const released = new Promise<void>((r) => (release = r));
      holds.push({ ...match, reach, gone, released });
      return { reached, clientGone, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
