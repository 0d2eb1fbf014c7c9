/**
 * The render threads run at RENDER_NICE and the thread that serves HTTP keeps its own priority:
 * Linux keeps a nice value per thread, so the pool's threads give way to HTTP whenever both want
 * a core (src/rendering/thread-priority.ts).
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { RENDER_NICE, RenderPool } from '../../src/rendering/pool.ts';
import { slide } from './support.ts';

/** Each thread of this process with its nice value (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of fs.readdirSync(`/proc/${process.pid}/task`)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    // After the command name's last ')', field 3 on: nice is field 19.
    nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nices;
}

describe.skipIf(process.platform !== 'linux')('render thread priority', () => {
  const pool = new RenderPool({ threads: 1 });
  afterAll(() => pool.close());

  it('lowers the render thread to RENDER_NICE and leaves this thread alone', async () => {
    const before = threadNices();
    await pool.fit({ device: 'iphone-69', slides: [slide(0, 'A headline to fit', 'text-only')] });
    const started = [...threadNices()].filter(([tid]) => !before.has(tid));
    expect(started.map(([, nice]) => nice)).toContain(RENDER_NICE);
    expect(threadNices().get(process.pid)).toBe(before.get(process.pid));
  });
});
