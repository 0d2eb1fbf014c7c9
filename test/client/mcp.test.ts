/**
 * `shotgen mcp` as an agent's host runs it: a child process on stdio, driven by the SDK's own
 * client, calling a whole server on 127.0.0.1 with SHOTGEN_URL and SHOTGEN_API_KEY.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.ts';
import { solidPng } from '../support/fake-images.ts';
import { IOS_URL, startShotgenServer, type ShotgenServer } from './server.ts';

let s: ShotgenServer;
let client: Client;
let stderr = '';

beforeAll(async () => {
  s = await startShotgenServer();
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, 'bin', 'shotgen.js'), 'mcp'],
    cwd: ROOT,
    env: { ...env, SHOTGEN_URL: s.url, SHOTGEN_API_KEY: s.key },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  client = new Client({ name: 'shotgen-test', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await s?.close();
});

const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('shotgen mcp', () => {
  it('lists the tools, with input schemas taken from the API’s own request schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['create_app', 'create_screenshot_set', 'get_account', 'get_job', 'list_narratives', 'upload_screen']);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.create_app.inputSchema).toMatchObject({ type: 'object', additionalProperties: false, properties: { iosUrl: { type: 'string', maxLength: 2048 }, extraContext: { maxLength: 2000 } } });
    const set = byName.create_screenshot_set.inputSchema as { required: string[]; properties: Record<string, { enum?: string[] }> };
    expect(set.required.sort()).toEqual(['appId', 'device']);
    expect(set.properties.device.enum).toContain('iphone-69');
    expect(Object.keys(set.properties)).toEqual(expect.arrayContaining(['count', 'captionStyle', 'narrativeId', 'screenIds', 'slides', 'idempotencyKey']));
    expect(client.getInstructions()).toContain('create_app');
  });

  it('runs create_app → upload_screen → create_screenshot_set → get_job to rendered slides', { timeout: 120_000 }, async () => {
    const app = await call('create_app', { iosUrl: IOS_URL });
    expect(app.isError).toBeFalsy();
    expect(app.structuredContent).toMatchObject({ appId: expect.stringMatching(/^app_/), name: 'Pocket Planner' });
    expect(JSON.parse((app.content[0] as { text: string }).text)).toEqual(app.structuredContent);
    const appId = (app.structuredContent as { appId: string }).appId;

    const screen = await call('upload_screen', { appId, base64: (await solidPng(1290, 2796, 'red')).toString('base64') });
    expect(screen.structuredContent).toMatchObject({ screenId: expect.stringMatching(/^scr_/), family: 'iphone' });

    const account = (await call('get_account')).structuredContent as { credits: { remaining: number } };
    const created = await call('create_screenshot_set', { appId, device: 'iphone-69', count: 2, idempotencyKey: 'agent-1' });
    expect(created.structuredContent).toMatchObject({ jobId: expect.stringMatching(/^job_/), credits: { cost: 5, remaining: account.credits.remaining - 5 } });
    // The agent calling again with its key: the same job, no second charge.
    const again = await call('create_screenshot_set', { appId, device: 'iphone-69', count: 2, idempotencyKey: 'agent-1' });
    expect(again.structuredContent).toMatchObject({ jobId: (created.structuredContent as { jobId: string }).jobId, replayed: true });
    const jobId = (created.structuredContent as { jobId: string }).jobId;

    let job = await call('get_job', { jobId, waitSeconds: 45 });
    for (let i = 0; i < 3 && (job.structuredContent as { status: string }).status !== 'succeeded'; i++) job = await call('get_job', { jobId, waitSeconds: 45 });
    expect(job.structuredContent).toMatchObject({ id: jobId, status: 'succeeded', result: { slides: [expect.anything(), expect.anything()] } });

    const links = job.content.filter((c) => c.type === 'resource_link') as { uri: string; mimeType: string; name: string }[];
    expect(links.map((l) => l.mimeType)).toEqual(['image/png', 'image/png', 'application/zip']);
    const png = await fetch(links[0].uri);
    expect(png.status).toBe(200);
    expect(await sharp(Buffer.from(await png.arrayBuffer())).metadata()).toMatchObject({ width: 1320, height: 2868 });
    const images = job.content.filter((c) => c.type === 'image') as { data: string; mimeType: string }[];
    expect(images).toHaveLength(2);
    expect(await sharp(Buffer.from(images[0].data, 'base64')).metadata()).toMatchObject({ format: 'png', width: 320 });

    const without = await call('get_job', { jobId, images: false });
    expect(without.content.filter((c) => c.type === 'image')).toEqual([]);
  });

  it('answers list_narratives, and reports problems as tool errors an agent can act on', async () => {
    const narratives = await call('list_narratives');
    expect((narratives.structuredContent as { narratives: unknown[] }).narratives.length).toBeGreaterThanOrEqual(6);

    const invalid = await call('create_app', { iosUrl: 'https://example.com/app/id1' });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((invalid.content[0] as { text: string }).text).toMatch(/^iosUrl: .*\(validation_failed, HTTP 400\)$/);

    const missing = await call('get_job', { jobId: 'job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF' });
    expect(missing).toMatchObject({ isError: true, structuredContent: { code: 'job_not_found' } });
    const noImage = await call('upload_screen', { appId: 'app_1' });
    expect(noImage).toMatchObject({ isError: true, content: [{ type: 'text', text: 'give exactly one of path and base64' }] });
    const notAFile = await call('upload_screen', { appId: 'app_1', path: '/nonexistent/screen.png' });
    expect(notAFile.isError).toBe(true);
  });

  it('writes nothing but the protocol to stdout; its own lines go to stderr', () => {
    // Any stray stdout line would have broken the client's JSON-RPC parsing above.
    expect(stderr).toContain('shotgen mcp: serving on stdio');
  });
});
