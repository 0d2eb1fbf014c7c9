/** A rendered set to revise: an app, uploaded screens and a set of own captions framing them, waited for. */
import { createHash } from 'node:crypto';
import { insertApp } from '../../support/fixtures.ts';
import { solidPng } from '../../support/fake-images.ts';
import type { PicturesApp } from '../support.ts';

export const json = (res: { body: string }) => JSON.parse(res.body);
export const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export interface RenderedSet {
  appId: string;
  jobId: string;
  screens: string[];
  job: { result: { slides: { index: number; headline: string; image: { sha256: string } }[] } };
}

export const CAPTIONS = ['Plan Every Meal Fast', 'Shop With One List', 'Cook Without Stress'];

export async function upload(h: PicturesApp, appId: string, color: string): Promise<string> {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/v1/public/v1/apps/${appId}/screens`,
    headers: { ...h.auth, 'content-type': 'image/png' },
    payload: await solidPng(1290, 2796, color),
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return json(res).screenId;
}

export async function waitJob(h: PicturesApp, jobId: string, auth = h.auth) {
  for (;;) {
    const res = await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}`, headers: { ...auth, prefer: 'wait=30' } });
    const job = json(res);
    if (job.status === 'succeeded' || job.status === 'failed') return job;
  }
}

export async function renderedSet(h: PicturesApp, appId?: string): Promise<RenderedSet> {
  const app = appId ?? (await insertApp(h.t.pool, h.account.id));
  const screens = [await upload(h, app, 'red'), await upload(h, app, 'blue'), await upload(h, app, 'green')];
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/v1/public/v1/screenshots',
    headers: h.auth,
    payload: { appId: app, device: 'iphone-67', slides: CAPTIONS.map((headline, i) => ({ headline, screenId: screens[i] })) },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  const jobId = json(res).jobId;
  const job = await waitJob(h, jobId);
  if (job.status !== 'succeeded') throw new Error(JSON.stringify(job.error));
  return { appId: app, jobId, screens, job };
}

/** A job's slide PNG as served. */
export async function slideBytes(h: PicturesApp, jobId: string, index: number): Promise<Buffer> {
  const res = await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}/slides/${index}.png`, headers: h.auth });
  if (res.statusCode !== 200) throw new Error(`slide ${index}: ${res.statusCode} ${res.body}`);
  return res.rawPayload;
}
