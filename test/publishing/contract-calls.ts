/**
 * The publishing operations for test/http/contract.test.ts: each called once with a success and
 * once with an error, against both fake stores, so their answers are checked against the document.
 */
import { randomBytes } from 'node:crypto';
import { storeCredentialCheck } from '../../src/publishing/check.ts';
import { startFakeAppStoreConnect } from '../../src/fake-stores/app-store-connect.ts';
import { generateAppStoreKey } from '../../src/fake-stores/keys.ts';
import { advancePublication } from '../../src/publishing/runner.ts';
import { Keyring } from '../../src/secrets/envelope.ts';
import type { TestApp } from '../support/app.ts';
import { ASC_APP, FAST_RETRY, succeededJob } from './support.ts';

type Call = (
  method: 'GET' | 'POST' | 'DELETE',
  template: string,
  url: string,
  opts?: { headers?: Record<string, string>; body?: unknown },
) => Promise<{ statusCode: number; body: string }>;

export async function callPublishingOperations(h: TestApp, call: Call): Promise<void> {
  const asc = await startFakeAppStoreConnect();
  try {
    const key = generateAppStoreKey();
    asc.addKey(key.issuerId, key.keyId, key.publicKeyPem);
    asc.addApp({ appId: ASC_APP, locales: ['en-US'] });
    const keyring = new Keyring(randomBytes(32));
    const queued: string[] = [];
    h.services.publishing = {
      keyring,
      check: storeCredentialCheck({ appStoreConnectUrl: asc.url, retry: FAST_RETRY }),
      appStoreConnectUrl: asc.url,
      retry: FAST_RETRY,
      allowedTokenOrigins: [],
      advance: async (id) => void queued.push(id),
    };
    const none = { headers: {} };
    const body = { store: 'app-store', issuerId: key.issuerId, keyId: key.keyId, privateKey: key.privateKeyPem };
    const sc = JSON.parse((await call('POST', '/public/v1/store-connections', '/public/v1/store-connections', { body })).body).id;
    await call('POST', '/public/v1/store-connections', '/public/v1/store-connections', { body: { ...body, privateKey: 'x' } });
    await call('GET', '/public/v1/store-connections', '/public/v1/store-connections');
    await call('GET', '/public/v1/store-connections', '/public/v1/store-connections', none);

    const jobId = await succeededJob({ h }, { device: 'iphone-69', seeds: [1, 2] });
    const pub = JSON.parse(
      (await call('POST', '/public/v1/publications', '/public/v1/publications', { body: { jobId, connectionId: sc } })).body,
    ).id;
    await call('POST', '/public/v1/publications/{id}/approve', `/public/v1/publications/${pub}/approve`);
    await call('POST', '/public/v1/publications', '/public/v1/publications', { body: { jobId, connectionId: 'sc_nope' } });
    const runner = {
      db: h.t.pool,
      objects: h.services.objects,
      keyring,
      appStoreConnectUrl: asc.url,
      googlePlayApiUrl: asc.url,
      retry: FAST_RETRY,
    };
    for (const id of queued.splice(0)) await advancePublication(runner, id);
    await call('GET', '/public/v1/publications/{id}', `/public/v1/publications/${pub}`);
    await call('GET', '/public/v1/publications/{id}', '/public/v1/publications/pub_nope');
    await call('POST', '/public/v1/publications/{id}/approve', `/public/v1/publications/${pub}/approve`);
    await call('POST', '/public/v1/publications/{id}/approve', '/public/v1/publications/pub_nope/approve');

    // Variants: a custom product page submitted, a test treatment started, the app's variants listed.
    const run = async (target: unknown) => {
      const id = JSON.parse(
        (await call('POST', '/public/v1/publications', '/public/v1/publications', { body: { jobId, connectionId: sc, target } })).body,
      ).id;
      for (const id2 of queued.splice(0)) await advancePublication(runner, id2);
      await call('POST', '/public/v1/publications/{id}/approve', `/public/v1/publications/${id}/approve`);
      for (const id2 of queued.splice(0)) await advancePublication(runner, id2);
      return id as string;
    };
    const page = await run({ kind: 'custom-product-page', name: 'Contract' });
    await call('POST', '/public/v1/publications/{id}/submit', `/public/v1/publications/${page}/submit`);
    await call('POST', '/public/v1/publications/{id}/submit', '/public/v1/publications/pub_nope/submit');
    asc.setVersionState(ASC_APP, 'READY_FOR_SALE');
    await run({ kind: 'experiment-treatment', experiment: { name: 'Contract' }, treatment: 'B' });
    const experimentId = asc.experiments(ASC_APP)[0].id;
    await call('POST', '/public/v1/experiments/{id}/start', `/public/v1/experiments/${experimentId}/start`);
    asc.setExperimentState(experimentId, 'APPROVED');
    await call('POST', '/public/v1/experiments/{id}/start', `/public/v1/experiments/${experimentId}/start`);
    const appId = (await h.t.pool.query<{ app_id: string }>('SELECT app_id FROM jobs WHERE id = $1', [jobId])).rows[0].app_id;
    await call('GET', '/public/v1/apps/{appId}/variants', `/public/v1/apps/${appId}/variants`);
    await call('GET', '/public/v1/apps/{appId}/variants', '/public/v1/apps/app_nope/variants');

    await call('DELETE', '/public/v1/store-connections/{id}', '/public/v1/store-connections/sc_nope');
    await call('DELETE', '/public/v1/store-connections/{id}', `/public/v1/store-connections/${sc}`);
  } finally {
    await asc.close();
  }
}
