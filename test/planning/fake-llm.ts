/** A small OpenAI-compatible chat-completions server on 127.0.0.1 for the LLM caption tests. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeReply {
  status?: number;
  /** The assistant message content; an object is sent as its JSON text. */
  content?: unknown;
  /** A raw body instead of a chat completion. */
  raw?: string;
  delayMs?: number;
}

export interface FakeLlm {
  baseUrl: string;
  requests: { path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function startFakeLlm(reply: (body: Record<string, unknown>) => FakeReply): Promise<FakeLlm> {
  const requests: FakeLlm['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      // The SDK appends /chat/completions to whatever base URL it is given (".../v1" or bare).
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const r = reply(body);
      const send = () => {
        if (res.destroyed) return;
        const content = typeof r.content === 'string' ? r.content : JSON.stringify(r.content);
        const payload = r.raw ?? JSON.stringify({
          id: 'chatcmpl-fake', object: 'chat.completion', created: 0, model: body.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null } }],
        });
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json' }).end(payload);
      };
      if (r.delayMs) setTimeout(send, r.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
