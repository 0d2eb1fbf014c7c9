/** A plain TCP client for what fetch cannot do: trickle bytes, send broken HTTP, sit idle. */
import net from 'node:net';

export interface RawClient {
  socket: net.Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves with everything received when the server closes the connection. */
  closed: Promise<string>;
  write(data: string): void;
}

export function connect(port: number): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    const closed = new Promise<string>((done) => socket.on('close', () => done(data)));
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => data,
        closed,
        write: (chunk) => {
          if (!socket.destroyed) socket.write(chunk);
        },
      }),
    );
    socket.once('error', reject);
  });
}

/** Status, headers (lower-case) and body of the first response in raw bytes. */
export function parseResponse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? raw.length);
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(end + 4, end + 4 + length) };
}

/** Send `chunks` one by one, `everyMs` apart, until they run out or the socket closes. */
export async function trickle(client: RawClient, chunks: string[], everyMs: number): Promise<void> {
  for (const chunk of chunks) {
    if (client.socket.destroyed) return;
    client.write(chunk);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
