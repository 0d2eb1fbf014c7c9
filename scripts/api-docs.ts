/**
 * npm run docs:api: the API reference (docs/api.md) written from the OpenAPI document, so the
 * README links a file in the repository and the reference cannot drift from the routes (a test
 * compares the committed file with what this renders from openapi.json).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Schema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  examples?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  anyOf?: Schema[];
  title?: string;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<string, { description?: string }>;
}
interface Document {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

function typeOf(s: Schema | undefined): string {
  if (!s) return '';
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(', ');
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  const t = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
  if (t === 'array') return `array of ${typeOf(s.items)}`;
  const limits = [
    s.minimum !== undefined ? `≥ ${s.minimum}` : '',
    s.maximum !== undefined ? `≤ ${s.maximum}` : '',
    s.maxLength !== undefined ? `≤ ${s.maxLength} chars` : '',
  ].filter(Boolean);
  return limits.length ? `${t} (${limits.join(', ')})` : t;
}

/** One row per field; an object field's own fields follow it as `parent.child` (one level: what a body nests). */
function fieldRows(schema: Schema, prefix = ''): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, s]) => [
    `| \`${prefix}${name}\` | ${cell(typeOf(s))} | ${required.has(name) ? 'yes' : ''} | ${cell(s.description ?? '')}${s.default !== undefined ? ` Default \`${JSON.stringify(s.default)}\`.` : ''} |`,
    ...(prefix === '' && s.properties ? fieldRows(s, `${name}.`) : []),
  ]);
}

function fields(schema: Schema): string[] {
  const rows = fieldRows(schema);
  return rows.length ? ['| field | type | required | description |', '| --- | --- | --- | --- |', ...rows] : [];
}

export function renderApiDocs(doc: Document): string {
  const base = doc.servers?.[0]?.url ?? '';
  const out: string[] = [
    `# ${doc.info.title} ${doc.info.version}`,
    '',
    '<!-- Written by `npm run docs:api` from openapi.json; do not edit by hand. -->',
    '',
    doc.info.description ?? '',
    '',
    `Paths below are under the base URL (\`${base}\` by default, \`BASE_PATH\`). The machine-readable document is \`GET ${base}/public/openapi.json\` (OpenAPI 3.1, no key needed), the same as \`openapi.json\` in this repository.`,
    '',
    '## Operations',
    '',
  ];
  const methods = ['get', 'post', 'put', 'patch', 'delete'];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      out.push(`### \`${method.toUpperCase()} ${path}\` — ${op.summary ?? op.operationId ?? ''}`, '');
      if (op.description) out.push(op.description, '');
      const params = op.parameters ?? [];
      if (params.length) {
        out.push('| parameter | in | type | required | description |', '| --- | --- | --- | --- | --- |');
        for (const p of params)
          out.push(`| \`${p.name}\` | ${p.in} | ${cell(typeOf(p.schema))} | ${p.required ? 'yes' : ''} | ${cell(p.description ?? '')} |`);
        out.push('');
      }
      for (const [type, body] of Object.entries(op.requestBody?.content ?? {})) {
        out.push(`Request body (\`${type}\`)${body.schema?.title ? `: ${body.schema.title}` : ''}`, '');
        const rows = body.schema ? fields(body.schema) : [];
        if (rows.length) out.push(...rows, '');
      }
      out.push('| status | meaning |', '| --- | --- |');
      for (const [status, res] of Object.entries(op.responses)) out.push(`| ${status} | ${cell(res.description ?? '')} |`);
      out.push('');
    }
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

const ROOT = new URL('../', import.meta.url);
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = JSON.parse(readFileSync(new URL('openapi.json', ROOT), 'utf8')) as Document;
  const target = fileURLToPath(new URL('docs/api.md', ROOT));
  writeFileSync(target, renderApiDocs(doc));
  console.log(`wrote ${target}`);
}
