/**
 * A stand-in for the stores' image hosts (mzstatic, googleusercontent) on 127.0.0.1: any path is a
 * PNG of a solid colour named by the path (/red/..., /green/...), unless a test tells it to fail,
 * hang, redirect or send a bomb. Records every path asked for.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export type ImageBehaviour = 'ok' | 'fail' | 'hang' | 'redirect-away' | 'redirect-same' | 'huge' | 'html';

export interface FakeImageHost {
  origin: string;
  /** A listing screenshot URL on this host, sized like an App Store one. */
  url(color: string, n?: number): string;
  requests: string[];
  behaviour: ImageBehaviour;
  /** Pictures to answer instead of a solid colour, by the colour segment of the path (`url(name)`). */
  pictures: Map<string, Buffer>;
  close(): Promise<void>;
}

const COLORS: Record<string, { r: number; g: number; b: number }> = {
  red: { r: 255, g: 0, b: 0 },
  green: { r: 0, g: 200, b: 0 },
  blue: { r: 0, g: 0, b: 255 },
  yellow: { r: 255, g: 220, b: 0 },
};

// Encoded once per worker and size: an iPhone-sized one costs sharp ~16 ms of CPU, and the suite
// asks for the same few hundreds of times. Each caller gets its own copy.
const solids = new Map<string, Promise<Buffer>>();

export const solidPng = async (width: number, height: number, color: string): Promise<Buffer> => {
  const key = `${width}x${height} ${color}`;
  let png = solids.get(key);
  if (!png) {
    png = sharp({ create: { width, height, channels: 3, background: COLORS[color] ?? COLORS.red } })
      .png()
      .toBuffer();
    solids.set(key, png);
    png.catch(() => solids.delete(key));
  }
  return Buffer.from(await png);
};

export async function startFakeImageHost(): Promise<FakeImageHost> {
  const cache = new Map<string, Buffer>();
  const sockets = new Set<import('node:net').Socket>();
  const host: FakeImageHost = {
    origin: '',
    requests: [],
    behaviour: 'ok',
    pictures: new Map(),
    url: (color, n = 1) => `${host.origin}/image/thumb/${color}/shot${n}/392x696bb.png`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer(async (req, res) => {
    host.requests.push(req.url ?? '');
    const behaviour = host.behaviour;
    if (behaviour === 'hang') return; // never answers; the client's time limit ends it
    if (behaviour === 'fail') return res.writeHead(503).end('unavailable');
    if (behaviour === 'redirect-away') return res.writeHead(302, { location: 'http://127.0.0.2:9/elsewhere.png' }).end();
    if (behaviour === 'redirect-same' && !req.url?.includes('moved')) return res.writeHead(302, { location: `${req.url}?moved=1` }).end();
    if (behaviour === 'html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>consent</html>');
    if (behaviour === 'huge') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 30 && !res.destroyed; i++) await new Promise((r) => res.write(chunk, r));
      return res.end();
    }
    const color = (req.url ?? '').split('/')[3] ?? 'red';
    const picture = host.pictures.get(color);
    if (picture) return res.writeHead(200, { 'content-type': 'image/png', 'content-length': picture.length }).end(picture);
    // `wide-<colour>`: a Mac's 16:10 screenshot; `land-<colour>` a phone's held sideways (a game's);
    // `old-<colour>` an older iPhone's 9:16 (1242×2208); any other colour a phone's.
    const shaped = { 'wide-': [2880, 1800], 'land-': [2796, 1290], 'old-': [1242, 2208] } as const;
    const prefix = (Object.keys(shaped) as (keyof typeof shaped)[]).find((p) => color.startsWith(p));
    const [w, h] = prefix ? shaped[prefix] : [1290, 2796];
    if (!cache.has(color)) cache.set(color, await solidPng(w, h, prefix ? color.slice(prefix.length) : color));
    const png = cache.get(color)!;
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  host.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return host;
}
