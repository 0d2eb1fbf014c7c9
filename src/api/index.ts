/** Every public operation, one file each. */
import type { Api, Services } from '../http/services.ts';
import { createApp } from './create-app.ts';
import { createScreenshotSet } from './create-screenshot-set.ts';
import { getAccount } from './get-account.ts';
import { getJob } from './get-job.ts';
import { listNarratives } from './list-narratives.ts';

export async function registerOperations(api: Api, services: Services): Promise<void> {
  createApp(api, services);
  createScreenshotSet(api, services);
  getJob(api, services);
  listNarratives(api, services);
  getAccount(api, services);
}
