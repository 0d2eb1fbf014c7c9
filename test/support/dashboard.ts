/**
 * A browser-like client for the dashboard over app.inject(): keeps cookies like a browser would
 * (by name; a Max-Age=0 or past Expires deletes), and reads each form's CSRF token from the page.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { dashboardPlugin } from '../../src/dashboard/index.ts';
import { createTestApp, type TestApp, type TestAppOptions } from './app.ts';

export class PageClient {
  readonly cookies = new Map<string, string>();
  last: LightMyRequestResponse | null = null;

  constructor(private readonly app: Pick<FastifyInstance, 'inject'>) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const gone = c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now()) || c.value === '';
      if (gone) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    this.last = res;
    return res;
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.keep(await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader(), ...headers } }));
  }

  /** POST a form; `_csrf` is taken from the last page unless the fields set it (or null: none). */
  async post(url: string, fields: Record<string, string | null>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const form = new URLSearchParams();
    const withToken = { _csrf: this.last ? csrfOf(this.last.body) : '', ...fields };
    for (const [k, v] of Object.entries(withToken)) if (v !== null) form.set(k, v);
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: form.toString(),
      }),
    );
  }

  /** POST a multipart form with files (an upload); `_csrf` as for post(). */
  async postFiles(
    url: string,
    fields: Record<string, string | null>,
    files: { field: string; name: string; type: string; bytes: Buffer }[],
  ): Promise<LightMyRequestResponse> {
    const boundary = `----shotgen${Date.now()}`;
    const parts: Buffer[] = [];
    const withToken = { _csrf: this.last ? csrfOf(this.last.body) : '', ...fields };
    for (const [k, v] of Object.entries(withToken)) {
      if (v !== null) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
    }
    for (const f of files) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
        ),
        f.bytes,
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        headers: { cookie: this.cookieHeader(), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat(parts),
      }),
    );
  }

  /** Sign up on the page and return this client, signed in. */
  async signUp(email: string, password = 'correct horse battery'): Promise<this> {
    await this.get('/sign-up');
    const res = await this.post('/sign-up', { email, password });
    if (res.statusCode !== 303) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
    return this;
  }
}

export function csrfOf(body: string): string {
  return /name="_csrf" value="([^"]*)"/.exec(body)?.[1] ?? '';
}

/** The headers every dashboard page must carry. */
export function expectSecurityHeaders(res: LightMyRequestResponse): void {
  const csp = String(res.headers['content-security-policy'] ?? '');
  const problems: string[] = [];
  if (!csp.includes("script-src 'self'")) problems.push('CSP script-src');
  if (csp.includes('unsafe-inline') || csp.includes('unsafe-eval')) problems.push('CSP allows inline');
  if (!csp.includes("frame-ancestors 'none'")) problems.push('frame-ancestors');
  if (!csp.includes("default-src 'none'")) problems.push('default-src');
  if (res.headers['x-content-type-options'] !== 'nosniff') problems.push('nosniff');
  if (!res.headers['referrer-policy']) problems.push('referrer-policy');
  if (problems.length) throw new Error(`${res.statusCode} response lacks ${problems.join(', ')}`);
}

/** The test app with the dashboard mounted, as `shotgen serve` mounts it. */
export const createDashboardApp = (opts: TestAppOptions = {}): Promise<TestApp> => createTestApp({ dashboard: dashboardPlugin, ...opts });
