/**
 * Mixed API traffic for the outage tests: creates with an Idempotency-Key (retried with the same
 * key after a 503 or a lost connection, as a careful client does), polls of the jobs created, and
 * account reads. Every answer is tallied by status and code, with its time, so a test can say which
 * 5xx kinds occurred and how long the service took to come back.
 */
export interface Answer {
  at: number;
  route: 'create' | 'poll' | 'account';
  status: number;
  code: string | null;
  /** For a 5xx: whether it was problem+json with Retry-After and x-request-id. */
  wellFormed: boolean;
}

export interface LoadReport {
  answers: Answer[];
  /** Requests that got no HTTP answer at all (the process or its socket was gone). */
  networkErrors: number;
  /** Idempotency-Key to the jobId(s) its 201s named: exactly one each. */
  created: Map<string, Set<string>>;
  /** "503 service_unavailable" -> count, for every 5xx. */
  fiveXx: Record<string, number>;
}

export interface Load {
  stop(): Promise<LoadReport>;
  /** Resolves at the first successful create answered after `since`. */
  successAfter(since: number): Promise<number>;
  /** Resolves at the first 5xx answered after `since`. */
  failureAfter(since: number): Promise<number>;
}

/**
 * Each client creates at most one set per `createEveryMs` (default 1 s) and polls in between:
 * every set is rendered by the worker, and an unpaced stream of creates would measure rendering
 * throughput rather than the API's behaviour through an outage. Six clients at 1 s still send a
 * create every ~170 ms through the outage; at 250 ms the worker's rendering of the sets made each
 * outage test take a minute.
 */
export function startLoad(opts: { base: string; key: string; appId: string; clients?: number; createEveryMs?: number }): Load {
  const headers = { authorization: `Bearer ${opts.key}` };
  const answers: Answer[] = [];
  const created = new Map<string, Set<string>>();
  const jobIds: string[] = [];
  let networkErrors = 0;
  let stopping = false;

  async function call(route: Answer['route'], url: string, init: RequestInit = {}): Promise<Record<string, unknown> | null> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
    } catch {
      networkErrors++;
      await new Promise((r) => setTimeout(r, 50));
      return null;
    }
    const text = await res.text();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const wellFormed =
      res.status < 500 ||
      (String(res.headers.get('content-type')).startsWith('application/problem+json') &&
        Number(res.headers.get('retry-after')) > 0 &&
        body.requestId === res.headers.get('x-request-id'));
    answers.push({ at: Date.now(), route, status: res.status, code: typeof body.code === 'string' ? body.code : null, wellFormed });
    return res.status < 300 ? body : null;
  }

  const createEveryMs = opts.createEveryMs ?? 1_000;
  async function client(n: number): Promise<void> {
    for (let i = 0; !stopping; i++) {
      const nextCreate = Date.now() + createEveryMs;
      const key = `load-${n}-${i}`;
      // The same key until it is answered: a 503 or a lost answer must never charge twice.
      for (;;) {
        const body = await call('create', `${opts.base}/public/v1/screenshots`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          // Own captions: a text slide needs no screen to frame, so the workers stay off the network.
          body: JSON.stringify({ appId: opts.appId, device: 'iphone-69', slides: [{ headline: 'Plan your week' }] }),
        });
        if (body) {
          const jobId = String(body.jobId);
          if (!created.has(key)) created.set(key, new Set());
          created.get(key)!.add(jobId);
          jobIds.push(jobId);
          break;
        }
        if (stopping) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      for (let j = 0; !stopping && (j === 0 || Date.now() < nextCreate); j++) {
        const poll = jobIds[Math.floor(Math.random() * jobIds.length)];
        await call('poll', `${opts.base}/public/v1/jobs/${poll}`);
        if (j % 5 === 0) await call('account', `${opts.base}/public/v1/account`);
      }
    }
  }

  async function first(match: (a: Answer) => boolean): Promise<number> {
    for (;;) {
      const hit = answers.find(match);
      if (hit) return hit.at;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const clients = Array.from({ length: opts.clients ?? 6 }, (_, n) => client(n));
  return {
    async stop() {
      stopping = true;
      await Promise.all(clients);
      const fiveXx: Record<string, number> = {};
      for (const a of answers) if (a.status >= 500) fiveXx[`${a.status} ${a.code}`] = (fiveXx[`${a.status} ${a.code}`] ?? 0) + 1;
      return { answers, networkErrors, created, fiveXx };
    },
    successAfter: (since) => first((a) => a.at > since && a.route === 'create' && a.status === 201),
    failureAfter: (since) => first((a) => a.at > since && a.status >= 500),
  };
}

/** From a report: when the last failure was answered, and the first success after it. */
export function recovery(
  report: LoadReport,
  since: number,
): { failures: number; lastFailureAt: number | null; recoveredAt: number | null } {
  const failures = report.answers.filter((a) => a.at >= since && a.status >= 500);
  const lastFailureAt = failures.length ? Math.max(...failures.map((a) => a.at)) : null;
  const after = report.answers.find((a) => a.at > (lastFailureAt ?? since) && a.route === 'create' && a.status === 201);
  return { failures: failures.length, lastFailureAt, recoveredAt: after?.at ?? null };
}
