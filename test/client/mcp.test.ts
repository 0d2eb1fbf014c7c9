/**
 * `shotgen mcp` as an agent's host runs it: a child process on stdio, driven by the SDK's own
 * client, calling a whole server on 127.0.0.1 with SHOTGEN_URL and SHOTGEN_API_KEY.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.ts';
import { solidPng } from '../support/fake-images.ts';
import { IOS_URL, startShotgenServer, type ShotgenServer } from './server.ts';
import { scaled } from '../support/timing.ts';

/**
 * The SDK's stdio client transport, but keeping every byte the server wrote to stdout and stderr:
 * the SDK's own would report a stray stdout line to onerror and carry on, so the test could not see it.
 */
class RecordingStdioTransport implements Transport {
  stdout = '';
  stderr = '';
  /** What the client sent. */
  sent: JSONRPCMessage[] = [];
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private child: ChildProcessWithoutNullStreams | null = null;
  private exited: Promise<void> | null = null;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly env: Record<string, string>) {}

  async start(): Promise<void> {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'shotgen.js'), 'mcp'], { cwd: ROOT, env: this.env, stdio: 'pipe' });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('close', () => resolve()));
    void this.exited.then(() => this.onclose?.());
    child.stderr.on('data', (c: Buffer) => (this.stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      this.stdout += c.toString();
      this.buffer.append(c);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (!message) break;
        this.onmessage?.(message);
      }
    });
    await new Promise<void>((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    this.child?.stdin.write(serializeMessage(message));
  }

  /** Ends stdin, as an agent's host does, and waits for the server to exit. */
  async close(): Promise<void> {
    this.child?.stdin.end();
    await this.exited;
  }
}

let s: ShotgenServer;
let client: Client;
let transport: RecordingStdioTransport;

beforeAll(async () => {
  s = await startShotgenServer();
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  transport = new RecordingStdioTransport({ ...env, SHOTGEN_URL: s.url, SHOTGEN_API_KEY: s.key });
  client = new Client({ name: 'shotgen-test', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await s?.close();
});

const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** The app's screens as the API lists them. */
const screensOf = async (appId: string) =>
  (
    (await (await fetch(`${s.url}/public/v1/apps/${appId}/screens`, { headers: { 'x-api-key': s.key } })).json()) as {
      screens: { screenId: string; sha256: string }[];
    }
  ).screens;
/** Polls get_job until the job has ended. */
async function finishedJob(jobId: string): Promise<CallToolResult> {
  let job = await call('get_job', { jobId, waitSeconds: 45 });
  for (let i = 0; i < 3 && !['succeeded', 'failed'].includes((job.structuredContent as { status: string }).status); i++)
    job = await call('get_job', { jobId, waitSeconds: 45 });
  return job;
}

describe('shotgen mcp', () => {
  it('lists the tools, with input schemas taken from the API’s own request schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'approve_publication',
      'create_app',
      'create_publication',
      'create_screenshot_set',
      'create_store_connection',
      'estimate_screenshot_set',
      'get_account',
      'get_job',
      'get_publication',
      'list_narratives',
      'list_store_connections',
      'list_variants',
      'publish_variant',
      'revise_set',
      'upload_screen',
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.create_app.inputSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { iosUrl: { type: 'string', maxLength: 2048 }, extraContext: { maxLength: 2000 } },
    });
    const set = byName.create_screenshot_set.inputSchema as { required: string[]; properties: Record<string, { enum?: string[] }> };
    expect(set.required.sort()).toEqual(['appId', 'device']);
    expect(set.properties.device.enum).toContain('iphone-69');
    expect(Object.keys(set.properties)).toEqual(
      expect.arrayContaining(['count', 'captionStyle', 'narrativeId', 'screenIds', 'slides', 'idempotencyKey']),
    );
    expect(client.getInstructions()).toContain('create_app');
  });

  it('runs create_app → upload_screen → create_screenshot_set → get_job to rendered slides', { timeout: scaled(120_000) }, async () => {
    const app = await call('create_app', { iosUrl: IOS_URL });
    expect(app.isError).toBeFalsy();
    expect(app.structuredContent).toMatchObject({ appId: expect.stringMatching(/^app_/), name: 'Pocket Planner' });
    expect(JSON.parse((app.content[0] as { text: string }).text)).toEqual(app.structuredContent);
    const appId = (app.structuredContent as { appId: string }).appId;

    const screen = await call('upload_screen', { appId, base64: (await solidPng(1290, 2796, 'red')).toString('base64') });
    expect(screen.structuredContent).toMatchObject({ screenId: expect.stringMatching(/^scr_/), family: 'iphone' });

    const account = (await call('get_account')).structuredContent as { credits: { remaining: number } };
    // Free, and read-only: what the set would be, before paying for it.
    const estimate = await call('estimate_screenshot_set', { appId, device: 'iphone-69', count: 2 });
    expect(estimate.structuredContent).toEqual({ slides: 2, warnings: [], credits: { cost: 5, remaining: account.credits.remaining } });
    const created = await call('create_screenshot_set', { appId, device: 'iphone-69', count: 2, idempotencyKey: 'agent-1' });
    expect(created.structuredContent).toMatchObject({
      jobId: expect.stringMatching(/^job_/),
      credits: { cost: 5, remaining: account.credits.remaining - 5 },
    });
    // The agent calling again with its key: the same job, no second charge.
    const again = await call('create_screenshot_set', { appId, device: 'iphone-69', count: 2, idempotencyKey: 'agent-1' });
    expect(again.structuredContent).toMatchObject({ jobId: (created.structuredContent as { jobId: string }).jobId, replayed: true });
    const jobId = (created.structuredContent as { jobId: string }).jobId;

    let job = await call('get_job', { jobId, waitSeconds: 45 });
    for (let i = 0; i < 3 && (job.structuredContent as { status: string }).status !== 'succeeded'; i++)
      job = await call('get_job', { jobId, waitSeconds: 45 });
    expect(job.structuredContent).toMatchObject({
      id: jobId,
      status: 'succeeded',
      result: { slides: [expect.anything(), expect.anything()] },
    });

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

    // An argument the schema does not name is refused, not ignored.
    const misnamed = await call('get_job', { jobId, wait: 5 });
    expect(misnamed.isError).toBe(true);
    expect((misnamed.content[0] as { text: string }).text).toMatch(
      /get_job takes no argument "wait"; its arguments are jobId, waitSeconds, images/,
    );

    // An edit, free: a new job whose parent is this one.
    const revised = await call('revise_set', { jobId, slides: [{ index: 2, headline: 'Plan Every Meal' }] });
    expect(revised.isError).toBeFalsy();
    expect(revised.structuredContent).toMatchObject({ parentJobId: jobId, slides: 2, credits: { cost: 0 } });
    const revision = await finishedJob((revised.structuredContent as { jobId: string }).jobId);
    expect(revision.structuredContent).toMatchObject({ status: 'succeeded', parentJobId: jobId });
  });

  it('answers list_narratives, and reports problems as tool errors an agent can act on', async () => {
    const narratives = await call('list_narratives');
    expect((narratives.structuredContent as { narratives: unknown[] }).narratives.length).toBeGreaterThanOrEqual(6);

    const own = await call('create_app', {
      listing: { name: 'Fernly', description: 'Get watering reminders for every plant.', category: 'Lifestyle' },
    });
    expect(own.structuredContent).toMatchObject({ name: 'Fernly', category: 'Lifestyle', artworkUrl: null });
    const both = await call('create_app', { iosUrl: IOS_URL, listing: { name: 'Fernly', description: 'Plants.', category: 'Lifestyle' } });
    expect(both).toMatchObject({ isError: true, structuredContent: { code: 'validation_failed', errors: [{ field: 'listing' }] } });

    const invalid = await call('create_app', { iosUrl: 'https://example.com/app/id1' });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((invalid.content[0] as { text: string }).text).toMatch(/^iosUrl: .*\(validation_failed, HTTP 400, req_\w+\)$/);

    const missing = await call('get_job', { jobId: 'job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF' });
    expect(missing).toMatchObject({ isError: true, structuredContent: { code: 'job_not_found' } });
    const noImage = await call('upload_screen', { appId: 'app_1' });
    expect(noImage).toMatchObject({ isError: true, content: [{ type: 'text', text: 'give exactly one of path and base64' }] });
    const notAFile = await call('upload_screen', { appId: 'app_1', path: '/nonexistent/screen.png' });
    expect(notAFile.isError).toBe(true);
  });

  it('get_job links and previews every locale’s slides of a set in several locales', { timeout: scaled(120_000) }, async () => {
    const appId = ((await call('create_app', { iosUrl: IOS_URL })).structuredContent as { appId: string }).appId;
    await call('upload_screen', { appId, base64: (await solidPng(1290, 2796, 'blue')).toString('base64') });
    const created = await call('create_screenshot_set', { appId, device: 'iphone-69', count: 2, locales: ['en-US', 'en-GB'] });
    expect(created.structuredContent).toMatchObject({ credits: { cost: 10 } });
    const jobId = (created.structuredContent as { jobId: string }).jobId;

    const job = await finishedJob(jobId);
    const result = (
      job.structuredContent as {
        status: string;
        result: { locales: { locale: string; slides: { index: number; role: string; image: { sha256: string } }[] }[] };
      }
    ).result;
    expect(job.structuredContent).toMatchObject({ status: 'succeeded' });
    expect(result.locales.map((l) => l.locale)).toEqual(['en-US', 'en-GB']);

    const links = job.content.filter((c) => c.type === 'resource_link') as { uri: string; mimeType: string; name: string }[];
    const pngs = links.filter((l) => l.mimeType === 'image/png');
    // The first locale's slides are under /slides/, the others' under /locales/{locale}/slides/.
    expect(pngs.map((l) => new URL(l.uri).pathname.replace(/^.*\/jobs\/[^/]+\//, ''))).toEqual([
      'slides/1.png',
      'slides/2.png',
      'locales/en-GB/slides/1.png',
      'locales/en-GB/slides/2.png',
    ]);
    const roles = result.locales[0].slides.map((x) => x.role);
    expect(pngs.map((l) => l.name)).toEqual([
      `en-US/slide-1-${roles[0]}.png`,
      `en-US/slide-2-${roles[1]}.png`,
      `en-GB/slide-1-${roles[0]}.png`,
      `en-GB/slide-2-${roles[1]}.png`,
    ]);
    expect(links.map((l) => l.mimeType).at(-1)).toBe('application/zip');
    // Each link is the locale's own picture: the bytes its result entry names.
    const expected = result.locales.flatMap((l) => l.slides.map((x) => x.image.sha256));
    const fetched = await Promise.all(pngs.map(async (l) => sha256(Buffer.from(await (await fetch(l.uri)).arrayBuffer()))));
    expect(fetched).toEqual(expected);
    expect(job.content.filter((c) => c.type === 'image')).toHaveLength(4);
  });

  it('upload_screen declares the type the bytes are, and refuses anything but PNG and JPEG before uploading', async () => {
    const appId = ((await call('create_app', { iosUrl: IOS_URL })).structuredContent as { appId: string }).appId;
    const dir = s.tempDir();
    // A JPEG under a .png name is sent as the JPEG it is.
    const jpeg = await sharp({ create: { width: 1290, height: 2796, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .jpeg()
      .toBuffer();
    fs.writeFileSync(path.join(dir, 'home.png'), jpeg);
    const uploaded = await call('upload_screen', { appId, path: path.join(dir, 'home.png') });
    expect(uploaded.isError).toBeFalsy();
    expect(uploaded.structuredContent).toMatchObject({ family: 'iphone', width: 1290, height: 2796, sha256: sha256(jpeg) });

    const webp = await sharp({ create: { width: 1290, height: 2796, channels: 3, background: { r: 0, g: 200, b: 0 } } })
      .webp()
      .toBuffer();
    const fromBase64 = await call('upload_screen', { appId, base64: webp.toString('base64') });
    expect(fromBase64).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'base64: the image is neither a PNG nor a JPEG (it looks like WebP); upload a PNG or a JPEG' }],
    });
    fs.writeFileSync(path.join(dir, 'notes.png'), 'not an image at all');
    const fromFile = await call('upload_screen', { appId, path: path.join(dir, 'notes.png') });
    expect(fromFile).toEqual({
      isError: true,
      content: [{ type: 'text', text: `path: ${path.join(dir, 'notes.png')} is neither a PNG nor a JPEG; upload a PNG or a JPEG` }],
    });
    // Neither reached the server: the app has the one JPEG.
    expect((await screensOf(appId)).map((x) => x.sha256)).toEqual([sha256(jpeg)]);
  });

  it('writes nothing but JSON-RPC messages to stdout; its own lines go to stderr', async () => {
    await client.close();
    const lines = transport.stdout.split('\n');
    // Every message ends its line, so the last piece is empty.
    expect(lines.pop()).toBe('');
    const invalid = lines.filter((line) => {
      try {
        return !JSONRPCMessageSchema.safeParse(JSON.parse(line)).success;
      } catch {
        return true;
      }
    });
    expect(invalid).toEqual([]);
    // One answer to each request the tests above made (initialize, tools/list, every tool call).
    const answered = lines
      .map((line) => JSON.parse(line) as { id?: number; method?: string })
      .filter((m) => m.id !== undefined && m.method === undefined);
    const asked = transport.sent.filter((m) => 'id' in m && 'method' in m);
    expect(asked.length).toBeGreaterThan(10);
    expect(answered.map((m) => m.id)).toEqual(asked.map((m) => (m as { id: number }).id));
    expect(transport.stderr).toContain('shotgen mcp: serving on stdio');
  });
});
