import { createShotgenClient } from '@shotgen/client';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool } from '../../src/client/mcp/tools.ts';
import { ASC_APP, connectAppStore, type PublishingHarness, succeededJob, publishingHarness } from './support.ts';

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

/** The typed client, its requests answered by the test server through inject (no socket). */
function client() {
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const res = await p.h.app.inject({
      method: req.method as 'GET',
      url: new URL(req.url).pathname,
      headers: Object.fromEntries(req.headers),
      ...(req.body ? { payload: Buffer.from(await req.arrayBuffer()) } : {}),
    });
    return new Response(res.statusCode === 204 ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers: res.headers as Record<string, string>,
    });
  };
  return createShotgenClient({
    baseUrl: 'http://shotgen.test/api/v1',
    apiKey: p.h.key,
    fetch: fetch as typeof globalThis.fetch,
    retry: false,
  });
}

describe('MCP publishing tools', () => {
  it('create_store_connection reads the key from its file, sends appStoreUpload, and shows no secret', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-mcp-keys-'));
    try {
      const p8 = path.join(dir, `AuthKey_${p.ascKey.keyId}.p8`);
      fs.writeFileSync(p8, p.ascKey.privateKeyPem);
      const json = path.join(dir, 'play.json');
      fs.writeFileSync(json, JSON.stringify(p.serviceAccount));
      const c = client();
      const base = { store: 'app-store', issuerId: p.ascKey.issuerId, keyId: p.ascKey.keyId, privateKeyPath: p8 };
      const library = await callTool(c, 'create_store_connection', { ...base, appStoreUpload: 'asset-library' });
      expect(library.isError, JSON.stringify(library.content)).toBeFalsy();
      expect(library.structuredContent).toMatchObject({ store: 'app-store', keyId: p.ascKey.keyId, appStoreUpload: 'asset-library' });
      const sets = await callTool(c, 'create_store_connection', base);
      expect(sets.structuredContent).toMatchObject({ appStoreUpload: 'screenshot-sets' });
      const play = await callTool(c, 'create_store_connection', { store: 'google-play', serviceAccountPath: json });
      expect(play.structuredContent).toMatchObject({ store: 'google-play', clientEmail: p.serviceAccount.client_email });
      const answers = JSON.stringify([library, sets, play]);
      for (const secret of [p.ascKey.privateKeyPem, p.serviceAccount.private_key]) expect(answers).not.toContain(secret.split('\n')[1]);
      const { rows } = await p.h.t.pool.query(`SELECT app_store_upload FROM store_connections ORDER BY created_at`);
      expect(rows.map((r) => r.app_store_upload)).toEqual(['asset-library', 'screenshot-sets', null]);

      // Errors an agent can act on, and nothing sent: a value the API does not take, a missing field, an unreadable file.
      const odd = await callTool(c, 'create_store_connection', { ...base, appStoreUpload: 'ftp' });
      expect(odd.isError).toBe(true);
      expect(JSON.stringify(odd.content)).toMatch(/appStoreUpload must be screenshot-sets or asset-library/);
      const noKey = await callTool(c, 'create_store_connection', { store: 'app-store', issuerId: 'i', privateKeyPath: p8 });
      expect(JSON.stringify(noKey.content)).toMatch(/needs keyId/);
      const gone = await callTool(c, 'create_store_connection', { ...base, privateKeyPath: path.join(dir, 'none.p8') });
      expect(JSON.stringify(gone.content)).toMatch(/cannot read .*none\.p8: ENOENT/);
      expect((await p.h.t.pool.query(`SELECT count(*)::int AS n FROM store_connections`)).rows[0].n).toBe(3);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('list connections, plan, show and approve a publication; an unknown one is an error the agent can read', async () => {
    const sc = await connectAppStore(p);
    const c = client();
    const list = await callTool(c, 'list_store_connections', {});
    expect(list.structuredContent).toMatchObject({ storeConnections: [{ id: sc, store: 'app-store' }] });
    expect(JSON.stringify(list)).not.toContain('PRIVATE KEY');

    const jobId = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2] });
    const created = await callTool(c, 'create_publication', { jobId, connectionId: sc });
    expect(created.isError).toBeFalsy();
    const id = (created.structuredContent as { id: string }).id;
    await p.drain();
    const planned = await callTool(c, 'get_publication', { publicationId: id });
    expect(planned.structuredContent).toMatchObject({ status: 'awaiting_approval', plan: { upload: 2 } });
    const approved = await callTool(c, 'approve_publication', { publicationId: id });
    expect(approved.structuredContent).toMatchObject({ status: 'applying' });
    await p.drain();
    expect((await callTool(c, 'get_publication', { publicationId: id })).structuredContent).toMatchObject({ status: 'published' });
    expect(p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67')).toHaveLength(2);

    const missing = await callTool(c, 'get_publication', { publicationId: 'pub_01JD2ZK5T8Q3W4E5R6T7Y8U9WH' });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ code: 'publication_not_found' });
  });

  it('publish_variant plans a custom product page, approved like any publication; list_variants shows it with its set', async () => {
    const sc = await connectAppStore(p);
    const c = client();
    const jobId = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2] });
    const plain = await callTool(c, 'publish_variant', { jobId, connectionId: sc, target: { kind: 'product-page' } });
    expect(plain.isError).toBe(true);
    expect(JSON.stringify(plain.content)).toMatch(/the product page is create_publication’s/);
    const created = await callTool(c, 'publish_variant', {
      jobId,
      connectionId: sc,
      target: { kind: 'custom-product-page', name: 'Students' },
    });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const id = (created.structuredContent as { id: string }).id;
    await p.drain();
    expect(p.asc.customProductPages(ASC_APP)).toEqual([]);
    await callTool(c, 'approve_publication', { publicationId: id });
    await p.drain();
    const appId = (await p.h.t.pool.query(`SELECT app_id FROM jobs WHERE id = $1`, [jobId])).rows[0].app_id;
    const variants = await callTool(c, 'list_variants', { appId });
    expect(variants.isError, JSON.stringify(variants.content)).toBeFalsy();
    expect(variants.structuredContent).toMatchObject({
      customProductPages: [
        { name: 'Students', state: 'PREPARE_FOR_SUBMISSION', jobId, publicationId: id, url: expect.stringMatching(/\?ppid=/) },
      ],
      experiments: [],
    });
  });
});
