// The first test needs a process in which nothing has registered fonts yet: vitest shares its
// workers between files (isolate: false), so it asks a child process.
import { execFileSync } from 'node:child_process';
import { GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { registerFontsFor } from '../../src/rendering/fonts.ts';

const FRESH_PROCESS = `
import { GlobalFonts } from '@napi-rs/canvas';
import { registerFontsFor } from './src/rendering/fonts.ts';
const has = (names) => names.map((f) => GlobalFonts.has(f));
const seen = [];
registerFontsFor(['Hello', null, 'שלום']);
seen.push(has(['sg-latin', 'sg-hebrew', 'sg-arabic', 'sg-thai', 'sg-devanagari', 'sg-jp', 'sg-emoji']));
registerFontsFor(['日本語']);
seen.push(has(['sg-jp', 'sg-kr', 'sg-sc', 'sg-tc', 'sg-emoji']));
registerFontsFor(['🇫🇷']);
seen.push(has(['sg-emoji']));
console.log(JSON.stringify(seen));
`;

describe('fonts are registered as texts need them', () => {
  it('registers the small fonts at once, CJK and emoji only for texts that have them', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', FRESH_PROCESS], { encoding: 'utf8' });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual([
      [true, true, true, true, true, false, false],
      [true, true, true, true, false],
      [true],
    ]);
  });

  it('registers a family once however often it is asked for', () => {
    const count = () => GlobalFonts.families.find((f) => f.family === 'sg-latin')?.styles.length;
    registerFontsFor(['Hello']);
    const before = count();
    registerFontsFor(['Hello again']);
    expect(count()).toBe(before);
  });
});
