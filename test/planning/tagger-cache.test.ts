/** The tagger's readings kept by text (src/captions/nlp.ts): the same reading, shared and frozen. */
import { describe, expect, it } from 'vitest';
import { nlp, taggedSentences } from '../../src/captions/nlp.ts';

describe('taggedSentences', () => {
  it('reads a text as compromise does, once, and no caller can change what the next one reads', () => {
    const text = 'track your habits. never miss a day';
    const first = taggedSentences(text);
    const fresh = nlp(text).json() as { terms: { text: string; tags: string[] }[] }[];
    expect(first.map((s) => s.terms.map((t) => [t.text, [...t.tags]]))).toEqual(fresh.map((s) => s.terms.map((t) => [t.text, t.tags])));
    expect(taggedSentences(text)).toBe(first);
    expect(() => (first[0].terms[0].tags as string[]).push('Noun')).toThrow(TypeError);
    expect(() => ((first[0].terms as unknown[]).length = 0)).toThrow(TypeError);
    expect(taggedSentences(text)[0].terms[0].tags).toEqual(fresh[0].terms[0].tags);
  });
});
