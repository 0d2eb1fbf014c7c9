/**
 * npm run docs:mcp: the README's table of MCP tools, written from the tool definitions `shotgen mcp`
 * serves (src/client/mcp/server.ts), between the markers below. A test compares the README with
 * what this renders, so the README cannot list fewer tools, or other words, than the server has.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TOOLS } from '../src/client/mcp/server.ts';

export const START = '<!-- mcp-tools: written by `npm run docs:mcp` from the tools `shotgen mcp` serves; do not edit -->';
export const END = '<!-- /mcp-tools -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

export function renderMcpTools(tools: readonly { name: string; description?: string; annotations?: { readOnlyHint?: boolean } }[]) {
  const rows = tools.map((t) => `| \`${t.name}\` | ${t.annotations?.readOnlyHint ? 'yes' : ''} | ${cell(t.description ?? '')} |`);
  return [START, `${tools.length} tools.`, '', '| tool | read-only | does |', '|---|---|---|', ...rows, END].join('\n');
}

/** The README with its tools section replaced by `section`; throws when the markers are missing. */
export function withMcpTools(readme: string, section: string): string {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md has no MCP tools section (${START} … ${END})`);
  return readme.slice(0, from) + section + readme.slice(to + END.length);
}

const README = fileURLToPath(new URL('../README.md', import.meta.url));
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(README, withMcpTools(readFileSync(README, 'utf8'), renderMcpTools(TOOLS)));
  console.log(`wrote the MCP tools of ${README}`);
}
