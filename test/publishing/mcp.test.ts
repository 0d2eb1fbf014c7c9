import { createShotgenClient } from '@shotgen/client';
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
});
