/**
 * The threads a test process shares between the services its files start (`startService`'s
 * `threads`): the render pool of ./render-pool.ts for sets and previews, one planning thread for
 * configs without a model, and the fillability thread, left running at a service's close. Each
 * service started its own render pool (two threads), preview thread and planning thread and ended
 * the fillability thread, each about a CPU-second to start again (the fillability thread ~2 s with
 * its first checks), and a file starts one or two services. The threads keep nothing a test
 * reads (each test's database, objects and sets are its own); idle, they are unref'd and end on
 * their idle timeout, so no file closes them.
 */
import { PlanningPool } from '../../src/planning/pool.ts';
import type { SharedThreads } from '../../src/service.ts';
import { renderPool } from './render-pool.ts';

let planner: PlanningPool | null = null;

/** The pools for a service; `model`: its config has a model, whose planner stays the service's own. */
export function sharedThreads(opts: { model?: boolean } = {}): SharedThreads {
  return {
    renderer: renderPool(),
    previews: renderPool(),
    fillability: 'keep',
    ...(opts.model ? {} : { planner: (planner ??= new PlanningPool(null)) }),
  };
}
