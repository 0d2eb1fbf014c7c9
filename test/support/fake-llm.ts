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
  /** Answers sent so far: a test sees that a job ended while a hung answer was still owed. */
  readonly answered: number;
  close(): Promise<void>;
}

export async function startFakeLlm(reply: (body: Record<string, unknown>) => FakeReply): Promise<FakeLlm> {
  const requests: FakeLlm['requests'] = [];
  let answered = 0;
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
        const payload =
          r.raw ??
          JSON.stringify({
            id: 'chatcmpl-fake',
            object: 'chat.completion',
            created: 0,
            model: body.model,
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null } }],
          });
        answered++;
        // The SDK retries a 5xx once after 0.5-1 s unless told when: what its backoff is, is not
        // ours to test, and every 5xx here would wait it out.
        const status = r.status ?? 200;
        res.writeHead(status, { 'content-type': 'application/json', ...(status >= 500 ? { 'retry-after-ms': '0' } : {}) }).end(payload);
      };
      // A long delay must not keep the test process alive once the server is closed.
      if (r.delayMs) setTimeout(send, r.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get answered() {
      return answered;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The slides a request asks the model to translate, and the locale it asks for (src/captions/model/translate.ts). */
export function translationRequest(
  body: Record<string, unknown>,
): { locale: string; slides: { index: number; headline: string; subheadline: string | null }[] } | null {
  const messages = body.messages as { role: string; content: string }[];
  const user = JSON.parse(messages.find((m) => m.role === 'user')?.content ?? '{}') as {
    targetLocale?: string;
    slides?: { index: number; headline: string; subheadline: string | null }[];
  };
  return user.targetLocale && user.slides ? { locale: user.targetLocale, slides: user.slides } : null;
}

/**
 * A model that "translates" with a word list (enough to tell the languages apart in tests), or
 * answers as `misbehave` says for a locale. Requests that are not translations get `fallback`.
 */
export function translator(
  words: Record<string, (headline: string, i: number) => string>,
  misbehave: Record<string, (attempt: number) => FakeReply | null> = {},
  fallback: FakeReply = { status: 500, raw: '{}' },
) {
  const attempts = new Map<string, number>();
  return (body: Record<string, unknown>): FakeReply => {
    const t = translationRequest(body);
    if (!t) return fallback;
    const attempt = (attempts.get(t.locale) ?? 0) + 1;
    attempts.set(t.locale, attempt);
    const odd = misbehave[t.locale]?.(attempt);
    if (odd) return odd;
    const write = words[t.locale];
    if (!write) return { status: 400, raw: '{"error":{"message":"unknown locale"}}' };
    return {
      content: {
        slides: t.slides.map((s, i) => ({
          index: s.index,
          headline: write(s.headline, i),
          subheadline: s.subheadline === null ? null : write(s.subheadline, i),
        })),
      },
    };
  };
}

/** A user message's text: the JSON part of a message that also carries the screens' pictures (LLM_VISION). */
export const userText = (content: unknown): string =>
  typeof content === 'string' ? content : ((content as { type: string; text?: string }[]).find((p) => p.type === 'text')?.text ?? '{}');

type RepairSlide = {
  index: number;
  role: string;
  /** Every candidate's problems, in the plain words the model reads. */
  findings: string[];
  candidates: { headline: string; subheadline: string | null; problems: string[] }[];
};

/** What a caption-writing request asks (src/captions/model/writer.ts): its slides, and whether it is the repair turn. */
export function captionRequest(body: Record<string, unknown>): {
  slides: { index: number; role: string }[];
  repair: RepairSlide[] | null;
  kept: { index: number; headline: string; subheadline: string | null }[] | null;
} | null {
  const messages = body.messages as { role: string; content: unknown }[];
  const user = JSON.parse(userText(messages[1]?.content ?? '{}')) as { slides?: { index: number; role: string }[]; targetLocale?: string };
  if (!user.slides || user.targetLocale) return null;
  const last =
    messages.length > 2
      ? (JSON.parse(userText(messages[messages.length - 1].content)) as {
          rewrite: Omit<RepairSlide, 'findings'>[];
          kept: { index: number; headline: string; subheadline: string | null }[];
        })
      : null;
  return {
    slides: user.slides,
    repair: last ? last.rewrite.map((s) => ({ ...s, findings: s.candidates.flatMap((c) => c.problems) })) : null,
    kept: last?.kept ?? null,
  };
}

type Caption = { headline: string; subheadline: string | null };

/**
 * A recorded caption model: `first` are its candidates per slide index (1-based), `repair` what it
 * answers in the repair turn for the slides sent back (absent: the same flawed words again).
 */
export function captionModel(first: Record<number, Caption[]>, repair: Record<number, Caption[]> = {}) {
  return (body: Record<string, unknown>): FakeReply => {
    const r = captionRequest(body);
    if (!r) return { status: 400, raw: '{"error":{"message":"not a caption request"}}' };
    const slides = r.repair
      ? r.repair.map((s) => ({ index: s.index, candidates: repair[s.index] ?? first[s.index] ?? [] }))
      : r.slides.map((s) => ({ index: s.index, candidates: first[s.index] ?? [] }));
    return { content: { slides } };
  };
}
