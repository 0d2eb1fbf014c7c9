/** The progress the client commands show: a bar redrawn in place on a terminal, plain lines elsewhere. */
import type { Job } from '@shotgen/client';
import { describe, expect, it } from 'vitest';
import { createReporter } from '../../src/client/progress.ts';

const stream = (isTTY: boolean) => {
  let text = '';
  return { s: { isTTY, write: (c: string) => ((text += c), true) } as unknown as NodeJS.WriteStream, text: () => text };
};
const job = (status: Job['status'], progress: Job['progress'] = null) => ({ id: 'job_1', status, progress }) as Job;

describe('the progress reporter', () => {
  it('draws a bar in place on a terminal and ends its line before any other', () => {
    const out = stream(true);
    const r = createReporter({ json: false, stream: out.s });
    r.job(job('running', { done: 1, total: 4 }));
    r.job(job('running', { done: 4, total: 4 }));
    r.line('wrote x.png');
    expect(out.text()).toBe(
      `\r\x1b[2Krendering [${'#'.repeat(6)}${'.'.repeat(18)}] 1/4 slides\r\x1b[2Krendering [${'#'.repeat(24)}] 4/4 slides\r\x1b[2Kwrote x.png\n`,
    );
  });

  it('prints a plain line per change when not a terminal, or with --json', () => {
    for (const [tty, json] of [
      [false, false],
      [true, true],
    ]) {
      const out = stream(tty);
      const r = createReporter({ json, stream: out.s });
      r.job(job('queued'));
      r.job(job('queued'));
      r.job(job('running', { done: 1, total: 3 }));
      r.job(job('succeeded'));
      r.end();
      expect(out.text()).toBe('job job_1: queued\njob job_1: running 1/3 slides\njob job_1: succeeded\n');
    }
  });
});
