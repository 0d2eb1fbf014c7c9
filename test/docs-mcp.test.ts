/** The README's table of MCP tools is what `npm run docs:mcp` writes from the tools `shotgen mcp` serves. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ShotgenClient } from '@shotgen/client';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { END, renderMcpTools, START, withMcpTools } from '../scripts/mcp-docs.ts';
import { createMcpServer } from '../src/client/mcp/server.ts';

const README = path.resolve(import.meta.dirname, '../README.md');

/** tools/list as an agent's host asks it (no tool is called: the API client is never used). */
async function servedTools() {
  const server = createMcpServer({} as ShotgenClient);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'docs-test', version: '0' });
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.close();
  }
}

describe('README.md, MCP tools', () => {
  it('lists every tool the server serves, as served: run `npm run docs:mcp` after changing the tools', async () => {
    const readme = readFileSync(README, 'utf8');
    const section = readme.slice(readme.indexOf(START), readme.indexOf(END) + END.length);
    const tools = await servedTools();
    expect(tools.length).toBeGreaterThanOrEqual(13);
    expect(section).toBe(renderMcpTools(tools));
    for (const t of tools) expect(section).toContain(`| \`${t.name}\` |`);
  });

  it('names no tool elsewhere in the command table: the one list is the generated one', () => {
    const readme = readFileSync(README, 'utf8');
    const row = readme.split('\n').find((l) => l.startsWith('| `shotgen mcp` |'));
    expect(row).toContain('[MCP tools](#mcp-tools)');
    expect(row).not.toMatch(/`[a-z]+_[a-z_]+`/);
  });

  it('replaces only its own section', () => {
    const readme = `# x\n\n${START}\nold\n${END}\n\nafter\n`;
    expect(withMcpTools(readme, `${START}\nnew\n${END}`)).toBe(`# x\n\n${START}\nnew\n${END}\n\nafter\n`);
    expect(() => withMcpTools('# no section', 'x')).toThrow(/no MCP tools section/);
  });
});
