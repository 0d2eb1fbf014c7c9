/**
 * One rendering pool per test process, shared by its files: vitest's `isolate: false` keeps this
 * module between the files a worker runs. A render thread's start (tsx, canvas, the fonts, the
 * renderer's modules) costs ~0.8 s of CPU against ~0.05 s for a text slide, and a pool per file
 * started one or two of them in each of ~30 files. The pool keeps nothing a test reads: each
 * test's slides, screens and database are its own, and `serve` shares its threads across jobs the
 * same way. Files never close it: idle threads are unref'd and end on the idle timeout, so they do
 * not hold the process open. A test of the pool itself (threads, priority, memory, closing) makes
 * its own.
 */
import { RenderPool } from '../../src/rendering/index.ts';

let shared: RenderPool | null = null;
export const renderPool = (): RenderPool => (shared ??= new RenderPool({ threads: 2 }));
