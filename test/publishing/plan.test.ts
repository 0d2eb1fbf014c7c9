import { describe, expect, it } from 'vitest';
import { planSlot } from '../../src/publishing/plan.ts';
import { resolveLocale } from '../../src/publishing/runner.ts';

const d = (...sums: string[]) => sums.map((c, i) => ({ file: `slides/${i + 1}.png`, checksum: c }));
const r = (...sums: string[]) => sums.map((c, i) => ({ id: `r${i + 1}`, checksum: c }));
const actions = (items: { action: string }[]) => items.map((i) => i.action).join(',');

describe('planning a slot by checksum', () => {
  it('uploads everything into an empty slot', () => {
    expect(actions(planSlot(d('a', 'b', 'c'), []))).toBe('upload,upload,upload');
  });

  it('plans nothing but keeps when the store already holds the set in order', () => {
    const plan = planSlot(d('a', 'b', 'c'), r('a', 'b', 'c'));
    expect(actions(plan)).toBe('keep,keep,keep');
    expect(plan.map((p) => p.remoteId)).toEqual(['r1', 'r2', 'r3']);
  });

  it('uploads only a changed slide, deletes the one it replaces, and moves what shifted', () => {
    const plan = planSlot(d('a', 'x', 'c'), r('a', 'b', 'c'));
    expect(actions(plan)).toBe('keep,upload,keep,delete');
    expect(plan[3].remoteId).toBe('r2');
    expect(actions(planSlot(d('c', 'a', 'b'), r('a', 'b', 'c')))).toBe('reorder,reorder,reorder');
  });

  it('matches duplicates one to one', () => {
    expect(actions(planSlot(d('a', 'a'), r('a')))).toBe('keep,upload');
  });

  it('on an append-only store keeps a correct prefix, else replaces the slot', () => {
    expect(actions(planSlot(d('a', 'b', 'x'), r('a', 'b', 'c'), { appendOnly: true }))).toBe('keep,keep,upload,delete');
    expect(actions(planSlot(d('b', 'a'), r('a', 'b'), { appendOnly: true }))).toBe('delete,delete,upload,upload');
    expect(actions(planSlot(d('a', 'b'), r('a', 'b'), { appendOnly: true }))).toBe('keep,keep');
  });
});

describe("a set locale's store locale", () => {
  it('is the same name, else the first of its language, by the codes the stores use', () => {
    const play = ['en-US', 'en-GB', 'de-DE', 'iw-IL', 'no-NO'];
    expect(resolveLocale('en-GB', play)).toBe('en-GB');
    expect(resolveLocale('en', play)).toBe('en-US');
    expect(resolveLocale('en-AU', play)).toBe('en-US');
    expect(resolveLocale('de_de', play)).toBe('de-DE');
    expect(resolveLocale('he', play)).toBe('iw-IL');
    expect(resolveLocale('nb', play)).toBe('no-NO');
    expect(resolveLocale('ja', play)).toBeNull();
    // A store that takes any locale (none listed) takes it as it is.
    expect(resolveLocale('en', null)).toBe('en');
  });
});
