/** Every public operation, one file each. */
import type { Api, Services } from '../http/services.ts';
import { createApp } from './create-app.ts';
import { createScreenshotSet } from './create-screenshot-set.ts';
import { getAccount } from './get-account.ts';
import { getJob } from './get-job.ts';
import { getJobFiles } from './get-job-file.ts';
import { uploadScreen } from './upload-screen.ts';
import { listScreens } from './list-screens.ts';
import { deleteScreen } from './delete-screen.ts';
import { listNarratives } from './list-narratives.ts';
import { createWebhook } from './create-webhook.ts';
import { deleteWebhook } from './delete-webhook.ts';
import { listWebhooks } from './list-webhooks.ts';

export async function registerOperations(api: Api, services: Services): Promise<void> {
  createApp(api, services);
  createScreenshotSet(api, services);
  getJob(api, services);
  getJobFiles(api, services);
  uploadScreen(api, services);
  listScreens(api, services);
  deleteScreen(api, services);
  listNarratives(api, services);
  getAccount(api, services);
  createWebhook(api, services);
  listWebhooks(api, services);
  deleteWebhook(api, services);
}
