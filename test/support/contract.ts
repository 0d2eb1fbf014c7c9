/**
 * Checks real responses against the served OpenAPI document: the status must be documented for
 * the operation, the content type must be the documented one, the body must validate against its
 * schema (JSON Schema 2020-12, as OpenAPI 3.1 says), and documented headers that every response
 * carries must be present.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// The document is untyped JSON walked by path.
/* eslint-disable @typescript-eslint/no-explicit-any */

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  /** The body as text (for bytes, only its length matters here). */
  body: string;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

export class ContractChecker {
  private readonly ajv: InstanceType<typeof Ajv2020>;
  /** "GET /public/v1/jobs/{id}" -> statuses seen. */
  readonly seen = new Map<string, Set<number>>();

  constructor(private readonly doc: Record<string, any>) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: unknown) => void)(this.ajv);
    this.ajv.addSchema(doc, 'openapi');
  }

  operations(): string[] {
    return Object.entries(this.doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
  }

  /** Throws with every difference between the answer and the document. */
  check(method: string, path: string, res: Answer): void {
    const op = this.doc.paths?.[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`${method} ${path} is not in the OpenAPI document`);
    const key = `${method.toUpperCase()} ${path}`;
    if (!this.seen.has(key)) this.seen.set(key, new Set());
    this.seen.get(key)!.add(res.statusCode);
    const documented = op.responses[String(res.statusCode)];
    if (!documented)
      throw new Error(
        `${key} answered ${res.statusCode}, which the document does not list (${Object.keys(op.responses).join(', ')}): ${res.body}`,
      );
    const problems: string[] = [];
    for (const [name, header] of Object.entries((documented.headers ?? {}) as Record<string, { description?: string }>)) {
      // Headers documented as conditional ("while queued", "when…") need not be on every answer.
      const always = name.toLowerCase() === 'x-request-id' || name.toLowerCase() === 'www-authenticate';
      if (always && res.headers[name.toLowerCase()] === undefined) problems.push(`header ${name} missing`);
      void header;
    }
    const contentType = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    const media = Object.keys(documented.content ?? {});
    if (res.statusCode === 204 || res.statusCode === 304 || media.length === 0) {
      if (res.body.length > 0 && media.length === 0) problems.push(`a body where the document has none: ${res.body.slice(0, 200)}`);
    } else if (!media.includes(contentType)) {
      problems.push(`content-type ${contentType}, documented ${media.join(', ')}`);
    } else if (documented.content[contentType]?.schema?.format === 'binary') {
      // Bytes (a picture, a ZIP): the content type is the contract.
    } else {
      const ref = `openapi#/${pointer('paths', path, method.toLowerCase(), 'responses', String(res.statusCode), 'content', contentType, 'schema')}`;
      const validate = this.ajv.getSchema(ref) ?? this.ajv.compile({ $ref: ref });
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        problems.push(`not JSON: ${res.body.slice(0, 200)}`);
      }
      if (body !== undefined && !validate(body))
        problems.push(...(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`));
    }
    if (problems.length)
      throw new Error(`${key} ${res.statusCode} breaks the document:\n- ${problems.join('\n- ')}\n${res.body.slice(0, 500)}`);
  }
}
