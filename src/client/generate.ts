/**
 * `shotgen generate`: store URLs and your screens in, store-ready PNGs and a ZIP out. One
 * Idempotency-Key per run, reused by every retry of the charged request, so that a retried run
 * (by the client, or after a dropped connection) is never charged twice.
 */
import type { CreateScreenshotSetRequest, DownloadedFile } from '@shotgen/client';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ClientContext } from './context.ts';
import { ClientFailure, EXIT } from './exit-codes.ts';
import { readScreens } from './screens-dir.ts';

export interface GenerateOptions {
  ios?: string;
  android?: string;
  device: CreateScreenshotSetRequest['device'];
  style?: CreateScreenshotSetRequest['captionStyle'];
  length?: CreateScreenshotSetRequest['captionLength'];
  theme?: CreateScreenshotSetRequest['theme'];
  orientation?: CreateScreenshotSetRequest['orientation'];
  count?: number;
  narrative?: string;
  context?: string;
  screens?: string;
  out: string;
  timeout: number;
}

const fileRow = (f: DownloadedFile) => ({
  path: f.path,
  bytes: f.bytes,
  sha256: f.sha256,
  ...(f.index ? { index: f.index } : {}),
  ...(f.locale ? { locale: f.locale } : {}),
});

export async function generate({ client, reporter, out }: ClientContext, opts: GenerateOptions): Promise<void> {
  if (!opts.ios && !opts.android) throw new ClientFailure('give --ios URL, --android URL or both', EXIT.usage);
  // Read the screens before anything is created: a wrong directory fails the run at no cost.
  const screens = opts.screens ? await readScreens(opts.screens) : [];
  const idempotencyKey = randomUUID();

  const app = await client.createApp({ iosUrl: opts.ios, androidUrl: opts.android, extraContext: opts.context });
  reporter.line(`app ${app.appId}: ${app.name} (${app.category})`);

  const screenIds: string[] = [];
  for (const [i, screen] of screens.entries()) {
    const uploaded = await client.uploadScreen(app.appId, screen.bytes, { contentType: screen.contentType });
    screenIds.push(uploaded.screenId);
    reporter.line(
      `screen ${i + 1}/${screens.length} ${path.basename(screen.path)}: ${uploaded.screenId} (${uploaded.family}, ${uploaded.width}×${uploaded.height})`,
    );
  }

  const setRequest: CreateScreenshotSetRequest = {
    appId: app.appId,
    device: opts.device,
    ...(opts.count !== undefined ? { count: opts.count } : {}),
    ...(opts.style ? { captionStyle: opts.style } : {}),
    ...(opts.length ? { captionLength: opts.length } : {}),
    ...(opts.theme ? { theme: opts.theme } : {}),
    ...(opts.orientation ? { orientation: opts.orientation } : {}),
    ...(opts.narrative ? { narrativeId: opts.narrative as CreateScreenshotSetRequest['narrativeId'] } : {}),
    ...(screenIds.length ? { screenIds } : {}),
  };
  // What planning knows before the charge (a Mac listing for an iPhone set) is said before any
  // credit is spent: the free estimate answers it, and refuses what the create would refuse.
  const estimate = await client.estimateScreenshotSet(setRequest);
  const early = estimate.warnings;
  for (const w of early) reporter.line(`warning: ${w}`);
  const accepted = await client.createScreenshotSet(setRequest, { idempotencyKey });
  reporter.line(`job ${accepted.jobId}: ${accepted.credits.cost} credits charged, ${accepted.credits.remaining} remain`);

  const job = await client.waitForJob(accepted.jobId, { timeoutMs: opts.timeout * 1000, onProgress: (j) => reporter.job(j) });
  reporter.end();
  if (job.status === 'failed') {
    throw new ClientFailure(
      `job ${job.id} failed: ${job.error?.message ?? 'no reason given'} (${job.error?.code ?? 'unknown'}); the ${accepted.credits.cost} credits were refunded`,
      EXIT.jobFailed,
    );
  }

  const files = await client.downloadSet(job, opts.out, {
    onFile: (f) => reporter.line(`wrote ${f.path} (${f.bytes} bytes, sha256 verified)`),
  });
  const value = {
    appId: app.appId,
    jobId: job.id,
    credits: accepted.credits,
    idempotencyKey,
    slides: files.slides.map(fileRow),
    archive: files.archive ? fileRow(files.archive) : null,
    warnings: job.result?.warnings ?? [],
  };
  const text = [
    `${files.slides.length} slides${files.archive ? ' and the ZIP' : ''} in ${opts.out}`,
    ...value.warnings.filter((w) => !early.includes(w)).map((w) => `warning: ${w}`),
  ].join('\n');
  out({ kind: 'object', value, text });
}
