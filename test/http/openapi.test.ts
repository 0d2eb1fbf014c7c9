import { createConfig, lintFromString, type Config } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_IDS } from '../../src/core/devices.ts';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { NARRATIVES } from '../../src/core/narratives.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

// The document is untyped JSON walked by path; `any` keeps these look-ups readable.
/* eslint-disable @typescript-eslint/no-explicit-any */

// createConfig's parameter type is derived from Redocly's whole configuration schema: checking a
// call against it took 3.5-5 s of `tsc` (a tenth of the type check), so the test calls it through
// the part it uses.
const redoclyConfig = createConfig as unknown as (config: { extends: string[] }) => Promise<Config>;

describe('the OpenAPI document', () => {
  let h: TestApp;
  let doc: Record<string, any>;
  beforeAll(async () => {
    h = await createTestApp();
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => h.close());

  it('is served without a key and validates against the OpenAPI 3.1 schema', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lints clean with Redocly’s recommended rules', async () => {
    const config = await redoclyConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const report = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location.map((l) => l.pointer).join(',')}`);
    expect(report).toEqual([]);
  });

  it('has every route, both security schemes, and every status with its problem schema', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKeyHeader', 'bearerAuth']);
    expect(doc.servers[0].url).toBe('/api/v1');
    const ops: Record<string, string[]> = {
      'post /public/v1/apps': ['200', '400', '401', '413', '415', '422', '429', '500', '502', '503'],
      'post /public/v1/screenshots': ['201', '400', '401', '402', '404', '409', '413', '415', '422', '429', '500', '503'],
      'post /public/v1/screenshots/estimate': ['200', '400', '401', '402', '404', '413', '415', '422', '429', '500', '503'],
      'get /public/v1/jobs/{id}': ['200', '401', '404', '429', '500', '503'],
      'get /public/v1/jobs/{id}/slides/{file}': ['200', '304', '401', '403', '404', '429', '500', '503'],
      'get /public/v1/jobs/{id}/locales/{locale}/slides/{file}': ['200', '304', '401', '403', '404', '429', '500', '503'],
      'get /public/v1/jobs/{id}/archive.zip': ['200', '304', '400', '401', '403', '404', '429', '500', '503'],
      'post /public/v1/apps/{appId}/screens': ['201', '400', '401', '404', '409', '413', '415', '429', '500', '503'],
      'get /public/v1/apps/{appId}/screens': ['200', '401', '404', '429', '500', '503'],
      'delete /public/v1/apps/{appId}/screens/{screenId}': ['204', '401', '404', '429', '500', '503'],
      'get /public/v1/narratives': ['200', '401', '429', '500', '503'],
      'get /public/v1/account': ['200', '401', '429', '500', '503'],
      'post /public/v1/webhooks': ['201', '400', '401', '409', '413', '415', '429', '500', '503'],
      'get /public/v1/webhooks': ['200', '401', '429', '500', '503'],
      'delete /public/v1/webhooks/{id}': ['204', '401', '404', '429', '500', '503'],
    };
    for (const [op, statuses] of Object.entries(ops)) {
      const [method, path] = op.split(' ');
      const operation = doc.paths[path]?.[method];
      expect(operation, op).toBeDefined();
      expect(Object.keys(operation.responses).sort()).toEqual(statuses.sort());
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        expect(Object.keys(operation.responses[status].content), `${op} ${status}`).toEqual(['application/problem+json']);
      }
    }
    expect(doc.components.schemas.Problem.properties.code.enum).toContain('insufficient_credits');
    for (const op of Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[]) {
      for (const [status, response] of Object.entries(op.responses) as [string, any][]) {
        expect(response.headers?.['x-request-id'], `${op.operationId} ${status}`).toBeDefined();
        expect(response.description).not.toBe('Default Response');
      }
    }
    expect(doc.paths['/public/v1/screenshots'].post.responses['201'].headers.Location).toBeDefined();
    // One success status per operation: a generated client's `data` is then one type, used without narrowing.
    for (const op of Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[])
      expect(
        Object.keys(op.responses).filter((s) => s.startsWith('2')),
        op.operationId,
      ).toHaveLength(1);
    expect(doc.paths['/public/v1/jobs/{id}'].get.responses['401'].headers['WWW-Authenticate']).toBeDefined();
  });

  it('documents the enums the server validates', () => {
    const body = doc.paths['/public/v1/screenshots'].post.requestBody.content['application/json'].schema;
    const values = (s: any): string[] => s.enum ?? s.anyOf?.map((x: any) => x.const) ?? [];
    expect(values(body.properties.device)).toEqual(DEVICE_IDS);
    expect(values(body.properties.captionStyle)).toEqual(CAPTION_STYLE_IDS);
    expect(values(body.properties.narrativeId)).toEqual(NARRATIVES.map((n) => n.id));
  });
});
