/**
 * A real HTTP server standing in for both stores, on 127.0.0.1 and a free port.
 *
 *   const store = await startFakeStore();
 *   const readers = createStoreReaders({ appStoreLookupUrl: store.appStoreLookupUrl,
 *     googlePlayUrl: store.googlePlayUrl, timeoutMs: 500, cacheTtlMs: 0 });
 *   store.set('app-store', '123', { body: lookupBody([lookupResult({ trackId: 123 })]) });
 *   store.set('google-play', 'com.example.app', [{ status: 500 }, { body: playDetailsPage(...) }]);
 *   ... store.requests, store.count('app-store', '123') ...
 *   await store.close();
 *
 * Serves GET /lookup?id=... (App Store) and GET /store/apps/details?id=... (Google Play). Responses
 * are programmed per store and id; a list is consumed one per request, its last entry repeating.
 * Ids with nothing programmed get the store's own "not found" (a resultCount 0 body, a 404 page).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOOKUP_NOT_FOUND_BODY, PLAY_NOT_FOUND_BODY } from './store-fixtures.ts';

export type FakeStoreName = 'app-store' | 'google-play';

export type FakeResponse =
  | {
      status?: number;
      body?: string;
      contentType?: string;
      delayMs?: number;
      headers?: Record<string, string>;
      /** Answer only once this settles: a test that must act while a request is in flight waits on no clock. */
      heldUntil?: Promise<unknown>;
    }
  /** Accept the request and never answer (until close()). */
  | 'hang'
  /** Drop the connection without an answer. */
  | 'reset';

/** Handy canned failures. */
export const FAIL = {
  serverError: { status: 500, body: 'Internal Server Error', contentType: 'text/plain' },
  forbidden: { status: 403, body: 'Forbidden', contentType: 'text/plain' },
  tooManyRequests: { status: 429, body: 'Too Many Requests', contentType: 'text/plain' },
  notFound: { status: 404, body: PLAY_NOT_FOUND_BODY },
  badJson: { status: 200, body: '<html>Service temporarily unavailable</html>', contentType: 'text/html' },
  hang: 'hang',
  reset: 'reset',
} as const satisfies Record<string, FakeResponse>;

export interface FakeRequest {
  store: FakeStoreName | 'unknown';
  method: string;
  /** Path and query exactly as received. */
  url: string;
  pathname: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

export interface FakeStore {
  /** Pass as appStoreLookupUrl (ends in /lookup). */
  appStoreLookupUrl: string;
  /** Pass as googlePlayUrl (the origin). */
  googlePlayUrl: string;
  /** Program the answer(s) for one id; replaces what was set before for it. */
  set(store: FakeStoreName, id: string, response: FakeResponse | FakeResponse[]): void;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** Requests for one store (and id). */
  count(store: FakeStoreName, id?: string): number;
  /** Forget programmed answers and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeStore(): Promise<FakeStore> {
  const programmed = new Map<string, FakeResponse[]>();
  const requests: FakeRequest[] = [];
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const store: FakeRequest['store'] =
      url.pathname === '/lookup' ? 'app-store' : url.pathname === '/store/apps/details' ? 'google-play' : 'unknown';
    const id = url.searchParams.get('id') ?? '';
    requests.push({
      store,
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      pathname: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
    });

    if (store === 'unknown') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such fake endpoint');
      return;
    }
    const queue = programmed.get(`${store}\n${id}`);
    const next: FakeResponse =
      queue && queue.length > 0
        ? queue.length > 1
          ? queue.shift()!
          : queue[0]
        : store === 'app-store'
          ? { body: LOOKUP_NOT_FOUND_BODY }
          : FAIL.notFound;

    if (next === 'hang') {
      hanging.add(res);
      return;
    }
    if (next === 'reset') {
      req.socket.destroy();
      return;
    }
    const send = () => {
      const contentType = next.contentType ?? (store === 'app-store' ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8');
      res.writeHead(next.status ?? 200, { 'content-type': contentType, ...next.headers }).end(next.body ?? '');
    };
    if (next.heldUntil) void next.heldUntil.then(send, send);
    else if (next.delayMs) setTimeout(send, next.delayMs);
    else send();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    appStoreLookupUrl: `${origin}/lookup`,
    googlePlayUrl: origin,
    requests,
    set(store, id, response) {
      programmed.set(`${store}\n${id}`, Array.isArray(response) ? [...response] : [response]);
    },
    count(store, id) {
      return requests.filter((r) => r.store === store && (id === undefined || r.query.id === id)).length;
    },
    reset() {
      programmed.clear();
      requests.length = 0;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
