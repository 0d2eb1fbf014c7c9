/**
 * The render pool's queue: a brand picture asked for while a set's slides wait goes before them,
 * so that it does not leave one thread drawing it alone after the last slide.
 */
import { Piscina } from 'piscina';
import { afterAll, describe, expect, it } from 'vitest';
import { accessible } from '../../src/brand/palette.ts';
import { RenderPool } from '../../src/rendering/index.ts';
import { ahead, LaneQueue } from '../../src/rendering/task-lanes.ts';
import { solidPng } from '../support/fake-images.ts';
import { slide } from './support.ts';

type QueuedTask = Parameters<LaneQueue['push']>[0];
const task = (name: string, first = false) =>
  ({ name, [Piscina.queueOptionsSymbol]: first ? { ahead: true } : null }) as unknown as QueuedTask & { name: string };
const drain = (q: LaneQueue) => {
  const out: string[] = [];
  for (let t = q.shift(); t; t = q.shift()) out.push((t as unknown as { name: string }).name);
  return out;
};

describe('LaneQueue', () => {
  it('takes the tasks marked ahead first, each lane in its order', () => {
    const q = new LaneQueue();
    for (const t of [task('s1'), task('s2'), task('b1', true), task('s3'), task('b2', true)]) q.push(t);
    expect(q.size).toBe(5);
    expect(drain(q)).toEqual(['b1', 'b2', 's1', 's2', 's3']);
    expect(q.size).toBe(0);
  });

  it('removes a task from its lane and puts one handed back at the head of its lane', () => {
    const q = new LaneQueue();
    const [s1, s2, b1] = [task('s1'), task('s2'), task('b1', true)];
    for (const t of [s1, s2, b1]) q.push(t);
    q.remove(s2);
    q.remove(task('never queued'));
    q.unshift(task('s0'));
    expect(drain(q)).toEqual(['b1', 's0', 's1']);
  });

  it('marks a task without a property the thread would receive', () => {
    const t = ahead({ kind: 'x' });
    expect(Object.keys(t)).toEqual(['kind']);
    expect(structuredClone(t)).toEqual({ kind: 'x' });
  });
});

describe('a brand picture on the pool', () => {
  const pool = new RenderPool({ threads: 1 });
  afterAll(() => pool.close());

  it('is drawn before the slides still waiting when it was asked for', async () => {
    const palette = accessible('#0F766E', '#134E4A');
    const icon = await solidPng(64, 64, 'orange');
    const slides = [0, 1, 2, 3].map((i) => slide(i, `Headline number ${i}`, 'text-only'));
    const events: string[] = [];
    let brand: Promise<void> | null = null;
    await pool.renderSlides(
      { device: 'android-phone', slides, screens: slides.map(() => null) },
      {
        onSlide: (_done, _total, got) => {
          events.push(`slide ${got!.index}`);
          // One thread: slide 1 is being drawn (or next), slides 2 and 3 wait.
          brand ??= pool
            .drawBrand({ kind: 'feature-graphic', input: { name: 'Pantry', headline: 'Plan every meal', palette, icon } })
            .then(() => void events.push('brand'));
        },
      },
    );
    await brand;
    expect(events).toEqual(['slide 0', 'slide 1', 'brand', 'slide 2', 'slide 3']);
  });
});
