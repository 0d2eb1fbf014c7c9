/**
 * The render pool's CPU a slide, user and system apart, and its minor page faults: 10-slide
 * iphone-69 sets (a leaning hero, nine slides framing one screen shared by the set, two screens in
 * turn), as the service's threads draw them, after two sets to warm up. System CPU and faults show
 * what freeing and faulting memory back in costs, which user CPU alone hides.
 *
 *   npx tsx bench/pool-cpu.ts [SETS=6] [THREADS=2]
 *
 * The allocator of @napi-rs/canvas reads MIMALLOC_* from the environment when the module loads:
 * `MIMALLOC_PURGE_DELAY=10 npx tsx bench/pool-cpu.ts` measures mimalloc's default, which
 * bin/shotgen.js raises to 1000 for the service.
 */
import { RenderPool } from '../src/rendering/index.ts';
import { fakeScreen, HEADLINES, slide } from './slide-fixture.ts';

const [SETS, THREADS] = [Number(process.argv[2] ?? 6), Number(process.argv[3] ?? 2)];
const pool = new RenderPool({ threads: THREADS });
const screens = [await fakeScreen(0), await fakeScreen(1)].map((s) => {
  // As a set's loader hands them over (sets/render.ts readShared): posted to the threads uncopied.
  const b = Buffer.from(new SharedArrayBuffer(s.length));
  b.set(s);
  return b;
});
const set = (n: number) => {
  const slides = HEADLINES.concat(HEADLINES).map((h, i) => ({
    ...slide(i, h),
    ...(i === 0 ? { role: 'hero' as const, layout: 'hero-centered' } : {}),
  }));
  return pool.renderSlides({ device: 'iphone-69', slides, screens: slides.map(() => screens[n % 2]) });
};
await set(0);
await set(1);
const [r0, t0] = [process.resourceUsage(), performance.now()];
for (let n = 0; n < SETS; n++) await set(n);
const [r1, t1] = [process.resourceUsage(), performance.now()];
const slides = SETS * 10;
const perSlide = (a: number, b: number) => Math.round((b - a) / 100 / slides) / 10;
console.log(
  JSON.stringify({
    userMsPerSlide: perSlide(r0.userCPUTime, r1.userCPUTime),
    systemMsPerSlide: perSlide(r0.systemCPUTime, r1.systemCPUTime),
    minorFaultsPerSlide: Math.round((r1.minorPageFault - r0.minorPageFault) / slides),
    wallMsPerSet: Math.round((t1 - t0) / SETS),
    purgeDelay: process.env.MIMALLOC_PURGE_DELAY ?? '(mimalloc default: 10 ms)',
  }),
);
await pool.close();
