/**
 * `shotgen revise JOB --slide 2 --headline "…"`: edit a succeeded set (free), wait for the revision
 * and, with --out, download its files. Only the edited slides are rendered again on the server.
 */
import type { CreateRevisionRequest } from '@shotgen/client';
import type { ClientContext } from './context.ts';
import { ClientFailure, EXIT } from './exit-codes.ts';

export interface ReviseOptions {
  slide?: number;
  headline?: string;
  subheadline?: string;
  screen?: string;
  theme?: CreateRevisionRequest['theme'];
  order?: string;
  out?: string;
  timeout: number;
}

export function revisionBody(opts: ReviseOptions): CreateRevisionRequest {
  const changes = {
    ...(opts.headline !== undefined ? { headline: opts.headline } : {}),
    ...(opts.subheadline !== undefined ? { subheadline: opts.subheadline === '' ? null : opts.subheadline } : {}),
    ...(opts.screen !== undefined ? { screenId: opts.screen } : {}),
  };
  if (Object.keys(changes).length && opts.slide === undefined)
    throw new ClientFailure('--headline, --subheadline and --screen need --slide N (the slide they change)', EXIT.usage);
  const order = opts.order?.split(',').map((x) => Number(x.trim()));
  if (order?.some((x) => !Number.isInteger(x) || x < 1))
    throw new ClientFailure(`--order must list slide numbers, like 1,3,2; got "${opts.order}"`, EXIT.usage);
  const body: CreateRevisionRequest = {
    ...(opts.slide !== undefined && Object.keys(changes).length ? { slides: [{ index: opts.slide, ...changes }] } : {}),
    ...(order ? { order } : {}),
    ...(opts.theme ? { theme: opts.theme } : {}),
  };
  if (!Object.keys(body).length)
    throw new ClientFailure('nothing to change: give --slide N with --headline, --subheadline or --screen, --order or --theme', EXIT.usage);
  return body;
}

export async function revise({ client, reporter, out }: ClientContext, jobId: string, opts: ReviseOptions): Promise<void> {
  const accepted = await client.createRevision(jobId, revisionBody(opts));
  reporter.line(`revision ${accepted.jobId} of ${jobId}: ${accepted.slides} slides, no credits charged`);
  for (const w of accepted.warnings) reporter.line(`warning: ${w}`);
  const job = await client.waitForJob(accepted.jobId, { timeoutMs: opts.timeout * 1000, onProgress: (j) => reporter.job(j) });
  reporter.end();
  if (job.status === 'failed')
    throw new ClientFailure(
      `revision ${job.id} failed: ${job.error?.message ?? 'no reason given'} (${job.error?.code ?? 'unknown'})`,
      EXIT.jobFailed,
    );
  const files = opts.out
    ? await client.downloadSet(job, opts.out, { onFile: (f) => reporter.line(`wrote ${f.path} (${f.bytes} bytes, sha256 verified)`) })
    : null;
  const value = {
    jobId: job.id,
    parentJobId: jobId,
    warnings: job.result?.warnings ?? [],
    slides: files ? files.slides.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256 })) : [],
  };
  const text = [
    files ? `${files.slides.length} slides in ${opts.out}` : `revision ${job.id} done`,
    ...value.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
  out({ kind: 'object', value, text });
}
