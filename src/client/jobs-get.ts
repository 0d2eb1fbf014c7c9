/** `shotgen jobs get ID [--wait]`: the job as the API returns it. */
import type { ClientContext } from './context.ts';
import { ClientFailure, EXIT } from './exit-codes.ts';

export async function getJob(
  { client, reporter, out }: ClientContext,
  jobId: string,
  opts: { wait?: boolean; timeout: number },
): Promise<void> {
  const job = opts.wait
    ? await client.waitForJob(jobId, { timeoutMs: opts.timeout * 1000, onProgress: (j) => reporter.job(j) })
    : await client.getJob(jobId);
  reporter.end();
  out({ kind: 'object', value: job });
  // Printed either way: a script that waited still gets the job's error to show.
  if (opts.wait && job.status === 'failed')
    throw new ClientFailure(
      `job ${job.id} failed: ${job.error?.message ?? 'no reason given'} (${job.error?.code ?? 'unknown'})`,
      EXIT.jobFailed,
    );
}
