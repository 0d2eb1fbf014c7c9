/** The connection cap sheds the oldest idle socket for a fresh one, and refuses only when all are busy. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { capConnections, type ConnectionCap } from '../../src/http/connection-cap.ts';
import { connect, type RawClient } from '../support/raw-socket.ts';

const GET = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';
let server: http.Server;
let cap: ConnectionCap;
const clients: RawClient[] = [];
const releases: (() => void)[] = [];

async function start(max: number, hold: boolean): Promise<number> {
  server = http.createServer((_req, res) => {
    const answer = () => res.end('ok');
    if (hold) releases.push(answer);
    else answer();
  });
  cap = capConnections(server, max);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

// No count of tries: on a loaded machine any fixed bound is a timing dependence; the test's own
// (scaled) timeout reports a condition that never holds.
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
};

afterEach(async () => {
  for (const c of clients.splice(0)) c.socket.destroy();
  for (const r of releases.splice(0)) r();
  await new Promise((r) => server.close(r));
});

describe('capConnections', () => {
  it('a fresh connection past the cap closes the oldest idle keep-alive socket and is served', async () => {
    const port = await start(5, false);
    for (let i = 0; i < 5; i++) {
      const c = await connect(port);
      clients.push(c);
      c.write(GET);
      await until(() => c.received().includes('ok'));
    }
    expect(cap.open).toBe(5);
    const fresh = await connect(port);
    clients.push(fresh);
    fresh.write(GET);
    await until(() => fresh.received().includes('200 OK'));
    await until(() => clients[0].socket.destroyed || clients[0].socket.readyState === 'closed');
    expect(clients.slice(1, 5).every((c) => !c.socket.destroyed && c.socket.readyState === 'open')).toBe(true);
    expect(cap).toMatchObject({ open: 5, shed: 1, refused: 0 });
  });

  it('a connection that never sent a request is idle too; one that is being served is never shed', async () => {
    const port = await start(3, true);
    const busy = await connect(port);
    clients.push(busy);
    busy.write(GET);
    await until(() => releases.length === 1);
    const silent = await connect(port);
    const other = await connect(port);
    clients.push(silent, other);
    const fresh = await connect(port);
    clients.push(fresh);
    await until(() => silent.socket.readyState === 'closed' || silent.socket.destroyed);
    expect(busy.socket.readyState).toBe('open');
    releases[0]();
    await until(() => busy.received().includes('ok'));
  });

  it('refuses a fresh connection only when every socket is serving a request, and serves again after', async () => {
    const port = await start(3, true);
    for (let i = 0; i < 3; i++) {
      const c = await connect(port);
      clients.push(c);
      c.write(GET);
    }
    await until(() => releases.length === 3);
    const refused = await connect(port);
    await refused.closed;
    expect(refused.received()).toBe('');
    expect(cap).toMatchObject({ open: 3, refused: 1, shed: 0 });
    for (const r of releases.splice(0)) r();
    await until(() => clients.every((c) => c.received().includes('ok')));
    const later = await connect(port);
    clients.push(later);
    later.write(GET);
    await until(() => releases.length === 1);
    releases.splice(0)[0]();
    await until(() => later.received().includes('ok'));
    expect(cap.shed).toBe(1);
  });
});
