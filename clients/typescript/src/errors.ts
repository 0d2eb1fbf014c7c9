/** What a client call throws: the API's problem, a wait that ran out, a download that came out wrong. */
import type { Job, ProblemCode } from './types.ts';

/**
 * The API answered with an error (RFC 9457 problem details). `code` is the stable member to branch
 * on; `problem` keeps the whole body (validation `errors`, `cost`/`remaining`, ...); `message` is
 * the problem as one line (problemLine).
 */
export class ShotgenError extends Error {
  override readonly name = 'ShotgenError';
  readonly status: number;
  /** The problem's code, or `http_<status>` when the answer was not problem+json (a proxy's page). */
  readonly code: ProblemCode | (string & {});
  readonly detail: string;
  readonly requestId: string | null;
  /** Seconds the server asked to wait before retrying (`Retry-After`), when it said. */
  readonly retryAfter: number | null;
  readonly problem: Record<string, unknown> | null;

  constructor(init: {
    status: number;
    code: string;
    detail: string;
    requestId: string | null;
    retryAfter: number | null;
    problem: Record<string, unknown> | null;
  }) {
    super(problemLine(init));
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.problem = init.problem;
  }

  /** `body` is what openapi-fetch parsed: the problem object, or the text of anything else. */
  static from(response: Response, body: unknown): ShotgenError {
    const problem =
      body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'string' ? (body as Record<string, unknown>) : null;
    const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
    return new ShotgenError({
      status: response.status,
      code: problem ? String(problem.code) : `http_${response.status}`,
      detail: problem && typeof problem.detail === 'string' ? problem.detail : text || response.statusText || `HTTP ${response.status}`,
      requestId: (problem && typeof problem.requestId === 'string' ? problem.requestId : null) ?? response.headers.get('x-request-id'),
      retryAfter: retryAfterSeconds(response.headers.get('retry-after')),
      problem,
    });
  }
}

/**
 * A problem as one line for a terminal, a log or an agent, which is every ShotgenError's `message`:
 * each field error of a `validation_failed` ("iosUrl: …; count: …", not "see errors"), else the
 * detail; then the code, the status and the request id to quote.
 */
function problemLine(p: {
  status: number;
  code: string;
  detail: string;
  requestId: string | null;
  problem: Record<string, unknown> | null;
}): string {
  const errors = Array.isArray(p.problem?.errors) ? (p.problem.errors as { field?: unknown; message?: unknown }[]) : [];
  const fields = errors
    .filter((e) => e && typeof e.message === 'string')
    .map((e) => (typeof e.field === 'string' && e.field ? `${e.field}: ${e.message}` : String(e.message)));
  return `${fields.length ? fields.join('; ') : p.detail} (${p.code}, HTTP ${p.status}${p.requestId ? `, ${p.requestId}` : ''})`;
}

/** waitForJob's timeout passed with the job still queued or running. */
export class ShotgenTimeoutError extends Error {
  override readonly name = 'ShotgenTimeoutError';
  constructor(
    readonly jobId: string,
    /** The job as last seen. */
    readonly job: Job | null,
  ) {
    super(`job ${jobId} did not finish in time (last status: ${job?.status ?? 'unknown'})`);
  }
}

/** A downloaded file's size or SHA-256 differs from what the job's result says; nothing was kept. */
export class ShotgenIntegrityError extends Error {
  override readonly name = 'ShotgenIntegrityError';
  constructor(
    readonly url: string,
    readonly expected: { sha256: string; bytes: number },
    readonly actual: { sha256: string; bytes: number },
  ) {
    super(
      `downloaded ${new URL(url).pathname} does not match the job's result (sha256 ${actual.sha256.slice(0, 12)}…, expected ${expected.sha256.slice(0, 12)}…)`,
    );
  }
}

/** Retry-After in seconds: delta-seconds or an HTTP date. */
export function retryAfterSeconds(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
