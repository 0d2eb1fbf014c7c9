/**
 * `shotgen mcp`: the API as Model Context Protocol tools on stdio. stdout carries the protocol
 * alone; anything else goes to stderr.
 */
import type { ShotgenClient } from '@shotgen/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { INPUTS, jsonSchema, type ToolName } from './schemas.ts';
import { callTool, DESCRIPTIONS } from './tools.ts';

const INSTRUCTIONS = `shotgen renders store screenshot sets (App Store, Google Play) for a mobile app.
Flow: create_app with the store URL(s), or with listing (its own text) for an app not in a store yet -> upload_screen the app's own screenshots (optional for a store app, needed without one) ->
optionally estimate_screenshot_set (free: slides, price, warnings) ->
create_screenshot_set for one device (5 credits; screenIds to frame uploaded screens) ->
get_job with waitSeconds until it succeeded (slide images and a ZIP link) or failed (refunded).
revise_set edits a succeeded set for free (captions, screens, order, theme); only changed slides are rendered again.
get_account shows the credits left; list_narratives the story templates.
Publishing a succeeded set to its store: list_store_connections (or create_store_connection from key files) -> create_publication -> get_publication
until awaiting_approval -> show the user the plan -> approve_publication only when they agree.`;

const READ_ONLY: readonly ToolName[] = [
  'estimate_screenshot_set',
  'get_job',
  'list_narratives',
  'get_account',
  'list_store_connections',
  'get_publication',
];

/** What tools/list answers, and what the README's table of tools is written from (scripts/mcp-docs.ts). */
export const TOOLS = (Object.keys(INPUTS) as ToolName[]).map((name) => ({
  name,
  description: DESCRIPTIONS[name],
  inputSchema: jsonSchema(INPUTS[name]),
  annotations: { readOnlyHint: READ_ONLY.includes(name), openWorldHint: true },
}));

export function createMcpServer(client: ShotgenClient, version = '0.1.0'): Server {
  const server = new Server({ name: 'shotgen', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(client, request.params.name, request.params.arguments ?? {}));
  return server;
}

/** Serves until the client closes stdin. */
export async function serveMcp(client: ShotgenClient): Promise<void> {
  const server = createMcpServer(client);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  server.onerror = (error) => process.stderr.write(`shotgen mcp: ${error.message}\n`);
  await server.connect(new StdioServerTransport());
  process.stdin.once('end', () => void server.close());
  process.stderr.write('shotgen mcp: serving on stdio\n');
  await closed;
}
