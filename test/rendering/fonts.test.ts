// Its own file: vitest gives it a fresh process, so no other test has registered fonts yet.
import { GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { registerFontsFor } from '../../src/rendering/fonts.ts';

describe('fonts are registered as texts need them', () => {
  it('registers the small fonts at once, CJK and emoji only for texts that have them', () => {
    registerFontsFor(['Hello', null, 'שלום']);
    expect(['sg-latin', 'sg-hebrew', 'sg-arabic', 'sg-thai', 'sg-devanagari'].every((f) => GlobalFonts.has(f))).toBe(true);
    expect(GlobalFonts.has('sg-jp') || GlobalFonts.has('sg-emoji')).toBe(false);
    registerFontsFor(['日本語']);
    expect(['sg-jp', 'sg-kr', 'sg-sc', 'sg-tc'].every((f) => GlobalFonts.has(f))).toBe(true);
    expect(GlobalFonts.has('sg-emoji')).toBe(false);
    registerFontsFor(['🇫🇷']);
    expect(GlobalFonts.has('sg-emoji')).toBe(true);
  });

  it('registers a family once however often it is asked for', () => {
    const count = () => GlobalFonts.families.find((f) => f.family === 'sg-latin')?.styles.length;
    registerFontsFor(['Hello']);
    const before = count();
    registerFontsFor(['Hello again']);
    expect(count()).toBe(before);
  });
});
