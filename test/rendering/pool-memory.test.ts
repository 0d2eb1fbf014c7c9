/**
 * A render thread frees skia's memory between slides. The pixels @napi-rs/canvas hands to
 * JavaScript are freed by finalizers on the thread's event loop; with piscina's default a busy
 * thread never returned to its loop, and ~15 MB a full-size slide stayed resident until the
 * thread went idle (4.9 GB after 300 slides on 2 threads). Measured as the resident memory of a
 * child process that does nothing else: vitest's forks run other files in the same process one
 * after another (isolate: false), and what they left for the collector once showed as 180 MB here.
 * The leak is ~600 MB over these 40 slides, the threshold a quarter of that.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const MEASURE = `
import fs from 'node:fs';
import { RenderPool } from './src/rendering/index.ts';
import { slide } from './test/rendering/support.ts';
const residentMb = () => Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const pool = new RenderPool({ threads: 1 });
const slides = Array.from({ length: 10 }, (_, i) => slide(i, 'Slide ' + i + ' of a long set', 'text-only'));
const render = () => pool.renderSet({ device: 'iphone-69', slides, screens: slides.map(() => null) });
await render(); // the thread starts and loads its fonts
const before = residentMb();
for (let i = 0; i < 4; i++) await render();
console.log(JSON.stringify({ grownMb: residentMb() - before }));
await pool.close();
`;

describe.skipIf(process.platform !== 'linux')('a render thread busy with slides back to back', () => {
  it('keeps its memory flat instead of holding every slide’s pixels until it is idle', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', MEASURE], { encoding: 'utf8' });
    const { grownMb } = JSON.parse(out.trim().split('\n').at(-1)!) as { grownMb: number };
    expect(grownMb).toBeLessThan(150);
  });
});
