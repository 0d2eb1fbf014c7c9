/**
 * Lowers the priority of a render thread. Linux keeps a nice value per thread and setpriority with
 * pid 0 sets the calling thread's; threads it starts later inherit it. So the render threads yield
 * the CPU to the event loop that serves HTTP in the same process whenever both want it, and use it
 * all when it is idle. sharp's and skia's asynchronous work (decoding a screen, the store
 * preview's thumbnails) runs on libuv's threads, which the HTTP thread started, and libvips' on
 * threads those start: that part of a set (~0.1 core while sets render) keeps the normal priority.
 */
import os from 'node:os';
import { workerData } from 'node:worker_threads';

const nice = (workerData as { nice?: number } | null)?.nice ?? 0;
if (nice !== 0) {
  try {
    os.setPriority(nice);
  } catch {
    // Not permitted here: the threads run at the process' priority.
  }
}
