/**
 * `shotgen publish JOB_ID --connection ID [--yes]`: plans the publication, shows the plan, asks
 * (unless --yes), approves and follows it to its end. Declining leaves the plan unapproved:
 * nothing on the store changes. `--custom-page NAME` or `--treatment B --experiment NAME` publish
 * to a variant instead of the product page; nothing is submitted for review or started.
 */
import type { Publication, PublicationTarget } from '@shotgen/client';
import { createInterface } from 'node:readline/promises';
import type { ClientContext } from './context.ts';
import { ClientFailure, EXIT } from './exit-codes.ts';

export interface PublishOptions {
  connection: string;
  yes?: boolean;
  locale?: string[];
  timeout: number;
  customPage?: string;
  treatment?: string;
  experiment?: string;
  trafficProportion?: number;
}

/** The target the flags name: the product page unless a custom page or a treatment is named. */
export function targetOf(opts: Pick<PublishOptions, 'customPage' | 'treatment' | 'experiment' | 'trafficProportion'>): PublicationTarget {
  if (opts.customPage && (opts.treatment || opts.experiment))
    throw new ClientFailure('--custom-page and --treatment/--experiment name two different targets; give one', EXIT.usage);
  if (opts.customPage) return { kind: 'custom-product-page', name: opts.customPage };
  if (!opts.treatment !== !opts.experiment)
    throw new ClientFailure('--treatment and --experiment go together: the treatment is one of the test’s', EXIT.usage);
  if (opts.trafficProportion !== undefined && !opts.experiment)
    throw new ClientFailure('--traffic-proportion is for a test: give --experiment and --treatment too', EXIT.usage);
  if (opts.treatment && opts.experiment)
    return {
      kind: 'experiment-treatment',
      experiment: { name: opts.experiment, ...(opts.trafficProportion !== undefined ? { trafficProportion: opts.trafficProportion } : {}) },
      treatment: opts.treatment,
    };
  return { kind: 'product-page' };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(ctx: ClientContext, id: string, done: (p: Publication) => boolean, timeoutMs: number): Promise<Publication> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pub = await ctx.client.getPublication(id);
    if (done(pub)) return pub;
    if (Date.now() > deadline)
      throw new ClientFailure(`publication ${id} is still ${pub.status}; see shotgen's GET /publications/${id}`, EXIT.timedOut);
    await sleep(1000);
  }
}

export function planTable(pub: Publication): string {
  const rows = pub.plan.items.map(
    (i) =>
      `  ${i.locale.padEnd(8)} ${i.slot.padEnd(24)} ${i.action.padEnd(8)} ${String(i.position ?? '-').padEnd(3)} ${i.file ?? i.remoteId ?? ''}`,
  );
  const t = pub.target;
  const where =
    t.kind === 'custom-product-page'
      ? ` (custom product page "${t.name}")`
      : t.kind === 'experiment-treatment'
        ? ` (treatment "${t.treatment}" of test "${t.experiment.name}")`
        : '';
  return [
    `Plan for ${pub.store} app ${pub.storeAppId}${where}: ${pub.plan.upload} upload, ${pub.plan.keep} keep, ${pub.plan.reorder} reorder, ${pub.plan.delete} delete`,
    ...rows,
  ].join('\n');
}

export async function publish(ctx: ClientContext, jobId: string, opts: PublishOptions): Promise<void> {
  const locales = Object.fromEntries((opts.locale ?? []).map((pair) => pair.split('=') as [string, string]));
  const target = targetOf(opts);
  const created = await ctx.client.createPublication({
    jobId,
    connectionId: opts.connection,
    ...(opts.locale?.length ? { locales } : {}),
    ...(target.kind === 'product-page' ? {} : { target }),
  });
  const timeoutMs = opts.timeout * 1000;
  const planned = await until(ctx, created.id, (p) => p.status !== 'planning', timeoutMs);
  if (planned.status === 'failed') throw new ClientFailure(`planning failed: ${planned.error?.message}`, EXIT.jobFailed);
  if (!ctx.json) ctx.reporter.line(planTable(planned));
  if (!opts.yes) {
    if (!process.stdin.isTTY)
      throw new ClientFailure(`not approved: pass --yes to approve publication ${planned.id} without asking`, EXIT.usage);
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    const answer = await rl.question('Apply this plan to the store? [y/N] ');
    rl.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      ctx.out({ kind: 'object', value: planned });
      return;
    }
  }
  await ctx.client.approvePublication(planned.id);
  const done = await until(ctx, planned.id, (p) => p.status === 'published' || p.status === 'failed', timeoutMs);
  ctx.reporter.end();
  ctx.out({ kind: 'object', value: done });
  if (done.status === 'failed')
    throw new ClientFailure(`publication ${done.id} failed: ${done.error?.message} (${done.error?.code})`, EXIT.jobFailed);
}
