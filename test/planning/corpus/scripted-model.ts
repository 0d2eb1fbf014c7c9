/**
 * A scripted caption "model" for `npm run eval:captions -- --fake`: an OpenAI-compatible fake
 * (test/support/fake-llm.ts) that answers every caption request from the listing it is sent, with
 * flaws planted on purpose, so the eval can run the whole model pipeline (candidates, checker,
 * repair turn, per-slide fallback, refusals) offline. Its words are the listing's own lines, so
 * its figures measure the pipeline's mechanics, never caption quality.
 *
 * Slide n's first answer: n % 4 = 2 an invented claim ("Rated 4.9 by 2M Users"), n % 4 = 3 a cut
 * line (ending on "and"), n % 8 = 5 German; otherwise (and in the repair turn) listing lines that fit.
 * Every 7th call answers 500 and every 11th malformed JSON.
 */
import { captionRequest, type FakeReply } from '../../support/fake-llm.ts';

type Caption = { headline: string; subheadline: string | null };

function linesOf(description: string, subtitle: string | null): string[] {
  const out = [subtitle ?? '', ...description.split(/\n+|(?<=[.!?])\s+/)]
    .map((l) =>
      l
        .replace(/^[^\p{L}\p{N}]+/u, '')
        .replace(/[.!?]+$/u, '')
        .trim(),
    )
    .filter((l) => l.split(/\s+/).length >= 2);
  return [...new Set(out)];
}

export function scriptedModel(): (body: Record<string, unknown>) => FakeReply {
  let call = 0;
  return (body) => {
    call++;
    if (call % 7 === 0) return { status: 500, raw: '{"error":{"message":"scripted 500"}}' };
    if (call % 11 === 0) return { content: '{"slides": [ {"index": 1, "candidates": [' };
    const r = captionRequest(body);
    if (!r) return { status: 400, raw: '{"error":{"message":"not a caption request"}}' };
    const messages = body.messages as { role: string; content: string }[];
    const system = messages[0].content;
    const head = Number(/Headline: at most (\d+)/.exec(system)?.[1] ?? 30);
    const subMax = Number(/Subheadline: at most (\d+)/.exec(system)?.[1] ?? 0);
    const user = JSON.parse(messages[1].content) as { listing: { description: string; subtitle: string | null } };
    const lines = linesOf(user.listing.description, user.listing.subtitle);
    const heads = lines.filter((l) => l.length <= head);
    const subs = lines.filter((l) => l.length > head && l.length < subMax);
    const at = (xs: string[], i: number) => (xs.length ? xs[i % xs.length] : null);
    const write = (n: number, offset: number): Caption[] => {
      const out: Caption[] = [];
      for (let k = 0; k < 3; k++) {
        const h = at(heads, n + offset + k * 5);
        if (h) out.push({ headline: h, subheadline: subMax > 0 ? `${at(subs, n + offset + k) ?? h}.` : null });
      }
      return out;
    };
    const planted = (n: number): Caption[] => {
      const sub = subMax > 0 ? 'Loved by millions of users every day.' : null;
      if (n % 8 === 5) return [{ headline: 'Verfolge deine Ziele jeden Tag', subheadline: subMax > 0 ? 'Mit klaren Plänen.' : null }];
      if (n % 4 === 2) return [{ headline: 'Rated 4.9 by 2M Users', subheadline: sub }];
      const h = at(heads, n);
      if (n % 4 === 3 && h) return [{ headline: `${h.split(' ').slice(0, 3).join(' ')} and`, subheadline: sub }];
      return [];
    };
    const slides = r.repair
      ? r.repair.map((s) => ({ index: s.index, candidates: write(s.index, 3) }))
      : r.slides.map((s) => ({ index: s.index, candidates: [...planted(s.index), ...write(s.index, 0)].slice(0, 3) }));
    return { content: { slides } };
  };
}
