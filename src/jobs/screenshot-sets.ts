/**
 * Creating a screenshot set: one transaction charges the credits, writes the queued job and, with
 * an Idempotency-Key, the idempotency record. There is never a charge without a job nor a job
 * without a charge, and a refused request changes nothing.
 */
import { appBelongsTo } from '../apps/apps.ts';
import { charge } from '../accounts/credits.ts';
import { transaction, type Db } from '../db/pool.ts';
import { isId, newId } from '../ids.ts';
import { findNarrative } from '../planning/narratives.ts';
import { DEFAULT_COUNT, type CaptionLength, type CaptionStyle, type Device } from '../planning/types.ts';
import { Problem } from '../problem.ts';
import { claimIdempotencyKey, completeIdempotencyKey, findIdempotencyRecord, requestHash } from './idempotency.ts';
import type { StoredPlanRequest } from './jobs.ts';

export const SCREENSHOT_SET_COST = 5;

export interface ScreenshotSetRequest {
  appId: string;
  device: Device;
  count?: number;
  captionStyle?: CaptionStyle;
  captionLength?: CaptionLength;
  narrativeId?: string;
}

export interface CreatedScreenshotSet {
  jobId: string;
  credits: { cost: number; remaining: number };
}

export interface CreateOptions {
  now: Date;
  idempotencyKey?: string;
  /** Called after commit with the account whose balance changed (cache invalidation). */
  onCharged?: (accountId: string) => void;
}

export function resolveRequest(request: ScreenshotSetRequest): StoredPlanRequest {
  const narrative = request.narrativeId ? findNarrative(request.narrativeId) : null;
  if (request.narrativeId && !narrative) {
    throw new Problem(400, 'validation_failed', `narrativeId: unknown narrative "${request.narrativeId}"`, {
      errors: [{ field: 'narrativeId', message: 'is not a narrative of GET /public/v1/narratives' }],
    });
  }
  return {
    device: request.device,
    count: narrative ? narrative.roles.length : (request.count ?? DEFAULT_COUNT),
    captionStyle: request.captionStyle ?? 'aso-expert',
    captionLength: request.captionLength ?? 'short',
    narrativeId: narrative?.id ?? null,
  };
}

export async function createScreenshotSet(
  db: Db,
  accountId: string,
  request: ScreenshotSetRequest,
  opts: CreateOptions,
): Promise<{ body: CreatedScreenshotSet; replayed: boolean }> {
  const planRequest = resolveRequest(request);
  const hash = opts.idempotencyKey ? requestHash(request) : null;

  if (opts.idempotencyKey) {
    const replay = await findIdempotencyRecord<CreatedScreenshotSet>(db, accountId, opts.idempotencyKey, hash!, opts.now);
    if (replay) return { body: replay, replayed: true };
  }
  // An id of the wrong shape cannot exist; answering without a query also keeps odd bytes out of SQL.
  if (!isId('app', request.appId) || !(await appBelongsTo(db, accountId, request.appId))) {
    throw new Problem(404, 'app_not_found', `No app ${request.appId} on this account.`);
  }

  const jobId = newId('job');
  try {
    const body = await transaction(db, async (tx) => {
      if (opts.idempotencyKey) {
        // First in the transaction: a concurrent duplicate waits here for this one to commit.
        await claimIdempotencyKey(tx, accountId, opts.idempotencyKey, hash!, opts.now);
      }
      const charged = await charge(tx, accountId, SCREENSHOT_SET_COST, opts.now, jobId);
      await tx.query(
        `INSERT INTO jobs (id, account_id, app_id, request, cost, period_start) VALUES ($1, $2, $3, $4, $5, $6)`,
        [jobId, accountId, request.appId, planRequest, SCREENSHOT_SET_COST, charged.periodStart],
      );
      const created: CreatedScreenshotSet = { jobId, credits: { cost: SCREENSHOT_SET_COST, remaining: charged.remaining } };
      if (opts.idempotencyKey) await completeIdempotencyKey(tx, accountId, opts.idempotencyKey, jobId, created);
      return created;
    });
    opts.onCharged?.(accountId);
    return { body, replayed: false };
  } catch (error) {
    // Lost the race for this key to a request that has now committed: answer as it did.
    if (opts.idempotencyKey && isUniqueViolation(error)) {
      const replay = await findIdempotencyRecord<CreatedScreenshotSet>(db, accountId, opts.idempotencyKey, hash!, opts.now);
      if (replay) return { body: replay, replayed: true };
    }
    throw error;
  }
}

const isUniqueViolation = (e: unknown): boolean => (e as { code?: string })?.code === '23505';
