/**
 * One slide on one thread, as bench/rendering.ts reports it: composed and encoded `runs` times
 * (after two to warm up), each with another of two screens so that every slide decodes its screen
 * as in a real set. Run by that bench in a child process started with the render threads' V8
 * flags; prints the medians as JSON and writes the last PNG to the path given.
 *
 *   node --import tsx bench/one-slide.ts RUNS OUT.png
 */
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { composeRaw } from '../src/rendering/compose.ts';
import { encodeSlide } from '../src/rendering/encode.ts';
import { benchTask, fakeScreen } from './slide-fixture.ts';

const [runs, out] = [Number(process.argv[2] ?? 25), process.argv[3]];
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// As on a render thread (src/rendering/worker.ts): one libvips thread.
sharp.concurrency(1);
const screens = [await fakeScreen(0), await fakeScreen(1)];
const task = benchTask(screens[0]);
const wall: number[] = [];
const cpu: number[] = [];
const compose: number[] = [];
let png: Buffer = Buffer.alloc(0);
for (let i = 0; i < runs + 2; i++) {
  const [w0, c0] = [performance.now(), cpuNow()];
  const raw = await composeRaw({ ...task, screen: screens[i % screens.length] });
  const c1 = cpuNow();
  // The encoder the service ships (its fallbacks included), not a copy of its settings.
  png = (await encodeSlide(raw, task.device, raw.lint)).bytes;
  if (i < 2) continue; // warm-up: JIT, font caches
  compose.push(c1 - c0);
  wall.push(performance.now() - w0);
  cpu.push(cpuNow() - c0);
}
if (out) writeFileSync(out, png);
process.stdout.write(JSON.stringify({ wall: median(wall), cpu: median(cpu), minCpu: Math.min(...cpu), compose: median(compose) }));
