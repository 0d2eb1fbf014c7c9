/** What each MCP tool does: one call to the API (through the typed client) and its answer as tool content. */
import { ShotgenError, ShotgenTimeoutError, type Job, type ScreenFamily, type ShotgenClient } from '@shotgen/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { connectionRequest, type ConnectInput } from '../connect.ts';
import { notAScreen, sniffScreenType, type ScreenContentType } from '../screens-dir.ts';
import { INPUTS, MAX_TOOL_WAIT_S, type ToolName } from './schemas.ts';
import { slidePreviews } from './previews.ts';

export const DESCRIPTIONS: Record<ToolName, string> = {
  create_app:
    'Create an app from its App Store and/or Google Play URL (the service reads the listing), or, for an app not in a store yet, from its own listing text (listing: name, subtitle, description, category, language, price; give no URL then). Returns appId, name, category, artworkUrl. Free.',
  upload_screen:
    'Upload one raw screenshot of the app (PNG or JPEG, from a file path or base64; any other format is refused) for the slides to frame. Returns screenId, family, width, height.',
  estimate_screenshot_set:
    'Check a screenshot set before paying for it (free): how many slides it will have, what it costs, the credits left and what planning warns about (e.g. a Mac listing for an iPhone set), or the same refusal create_screenshot_set would give.',
  create_screenshot_set:
    'Start rendering a screenshot set for one device: charges 5 credits and returns a jobId; follow it with get_job. Pass screenIds to frame uploaded screens.',
  get_job:
    'A screenshot-set job: queued, running (with progress), succeeded (slides with captions, image links and previews, every locale’s for a set with locales, the ZIP link) or failed (refunded). waitSeconds waits for it to end.',
  revise_set:
    'Edit a succeeded set without paying again: per slide (index) a new headline, subheadline, screenId, layout or colours; slides removed or added; a new order; the theme. Only the changed slides are rendered again. Returns the new jobId (follow it with get_job) and the caption checks’ warnings.',
  list_narratives: 'The stories a set can tell: ids to pass as narrativeId, with their slide counts and roles.',
  get_account: 'The API key’s account: plan and credits (allowance, used, remaining, resetsAt).',
  list_store_connections: 'The account’s App Store Connect and Google Play connections (ids to publish with); secrets are never shown.',
  create_store_connection:
    'Connect an App Store Connect API key or a Google Play service account to publish with, from the key file on this machine (the key never goes through this conversation). The store is asked once whether it accepts the key; the answer never shows a secret. For App Store keys, appStoreUpload picks the screenshot sets (default) or the App Asset Library.',
  create_publication:
    'Plan putting a succeeded set on its store page (free): returns a publication in status planning; get_publication shows the plan (keep/upload/reorder/delete per locale) once awaiting_approval. Nothing changes on the store yet.',
  get_publication: 'A publication: status, plan, each item’s progress, error.',
  approve_publication:
    'Apply an approved plan to the LIVE store page, then verify it. Only after the user has seen the plan and said yes. Idempotent.',
  list_variants:
    'The app’s App Store custom product pages (name, URL with ppid, state) and product page optimization tests (state, running, treatments), read from App Store Connect, each with the shotgen set (jobId) it came from.',
  publish_variant:
    'Plan putting a succeeded set on an App Store custom product page (found by name, else made) or in a treatment of a product page optimization test (≤ 3 per test; found by name, else made); like create_publication, the plan waits for approve_publication and nothing is submitted for review or started.',
};

type Args = Record<string, unknown>;

const ok = (value: object, extra: CallToolResult['content'] = []): CallToolResult => ({
  structuredContent: value as Record<string, unknown>,
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }, ...extra],
});

/** An agent reads why and can correct its call: the problem's one line (field errors or detail, code, status, requestId) and the whole problem. */
export function toolError(error: unknown): CallToolResult {
  if (error instanceof ShotgenError) {
    return {
      isError: true,
      structuredContent: error.problem ?? { status: error.status, code: error.code, detail: error.detail },
      content: [{ type: 'text', text: error.message }],
    };
  }
  return { isError: true, content: [{ type: 'text', text: (error as Error)?.message ?? String(error) }] };
}

class BadInput extends Error {}

const str = (args: Args, name: string, required = true): string | undefined => {
  const v = args[name];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v === '') throw new BadInput(`${name}: expected a non-empty string`);
  return v;
};

/** The screen's bytes and their type, sniffed from the bytes; anything but PNG and JPEG stops here, before an upload. */
async function screenImage(args: Args): Promise<{ bytes: Uint8Array; contentType: ScreenContentType }> {
  const file = str(args, 'path', false);
  const base64 = str(args, 'base64', false);
  if ((file === undefined) === (base64 === undefined)) throw new BadInput('give exactly one of path and base64');
  let bytes: Uint8Array;
  if (file !== undefined) {
    try {
      bytes = new Uint8Array(await fs.readFile(file));
    } catch (error) {
      throw new BadInput(`path: ${(error as Error).message}`);
    }
  } else {
    bytes = new Uint8Array(Buffer.from(base64!, 'base64'));
  }
  const contentType = sniffScreenType(bytes);
  if (!contentType) throw new BadInput(notAScreen(bytes, file !== undefined ? `path: ${file}` : 'base64: the image'));
  return { bytes, contentType };
}

async function jobAnswer(client: ShotgenClient, job: Job, images: boolean): Promise<CallToolResult> {
  return ok(job, job.status === 'succeeded' ? await slidePreviews(client, job, images) : []);
}

/** An argument the tool's schema does not name is refused, not ignored: `wait` for `waitSeconds` would silently not wait. */
function unknownArguments(name: string, args: Args): BadInput | null {
  const schema = INPUTS[name as ToolName];
  if (!schema) return null;
  const known = Object.keys(schema.properties);
  const extra = Object.keys(args).filter((k) => !known.includes(k));
  if (!extra.length) return null;
  return new BadInput(
    `${name} takes no argument ${extra.map((k) => `"${k}"`).join(', ')}; its arguments are ${known.length ? known.join(', ') : 'none'}`,
  );
}

export async function callTool(client: ShotgenClient, name: string, args: Args): Promise<CallToolResult> {
  const unknown = unknownArguments(name, args);
  if (unknown) return toolError(unknown);
  try {
    switch (name as ToolName) {
      case 'create_app':
        return ok(await client.createApp(args as never));
      case 'upload_screen': {
        const appId = str(args, 'appId')!;
        const { bytes, contentType } = await screenImage(args);
        const family = str(args, 'family', false) as ScreenFamily | undefined;
        return ok(await client.uploadScreen(appId, bytes, { contentType, family }));
      }
      case 'estimate_screenshot_set':
        return ok(await client.estimateScreenshotSet(args as never));
      case 'create_screenshot_set': {
        const { idempotencyKey, ...body } = args;
        // Without a key of the agent's, one per call still makes the client's own retries free.
        const key = typeof idempotencyKey === 'string' && idempotencyKey ? idempotencyKey : randomUUID();
        return ok(await client.createScreenshotSet(body as never, { idempotencyKey: key }));
      }
      case 'get_job': {
        const jobId = str(args, 'jobId')!;
        const wait = Math.min(MAX_TOOL_WAIT_S, Math.max(0, Number(args.waitSeconds ?? 0) || 0));
        const images = args.images !== false;
        if (wait === 0) return await jobAnswer(client, await client.getJob(jobId), images);
        try {
          return await jobAnswer(client, await client.waitForJob(jobId, { timeoutMs: wait * 1000 }), images);
        } catch (error) {
          if (error instanceof ShotgenTimeoutError && error.job) return await jobAnswer(client, error.job, images);
          throw error;
        }
      }
      case 'revise_set': {
        const { jobId, ...body } = args;
        return ok(await client.createRevision(str({ jobId }, 'jobId')!, body as never));
      }
      case 'list_narratives':
        return ok(await client.listNarratives());
      case 'get_account':
        return ok(await client.getAccount());
      case 'list_store_connections':
        return ok(await client.listStoreConnections());
      case 'create_store_connection':
        return ok(await client.createStoreConnection(await connectionRequest(args as unknown as ConnectInput)));
      case 'create_publication':
        return ok(await client.createPublication(args as never));
      case 'get_publication':
        return ok(await client.getPublication(str(args, 'publicationId')!));
      case 'approve_publication':
        return ok(await client.approvePublication(str(args, 'publicationId')!));
      case 'list_variants':
        return ok(await client.listVariants(str(args, 'appId')!, { connectionId: str(args, 'connectionId', false) }));
      case 'publish_variant': {
        const target = args.target as { kind?: unknown } | undefined;
        if (target?.kind !== 'custom-product-page' && target?.kind !== 'experiment-treatment')
          throw new BadInput('target.kind: custom-product-page or experiment-treatment (the product page is create_publication’s)');
        return ok(await client.createPublication(args as never));
      }
      default:
        return toolError(new Error(`no tool ${name}; the tools are ${Object.keys(INPUTS).join(', ')}`));
    }
  } catch (error) {
    return toolError(error);
  }
}
