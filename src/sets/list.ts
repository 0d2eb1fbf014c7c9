/**
 * An account's sets as lists (the dashboard): what was asked for, and where each job stands.
 * The job itself, result included, is read with findJob / JobReader exactly as the API reads it.
 */
import type { Queryable } from '../db/pool.ts';
import type { JobStatus, StoredPlanRequest } from './jobs.ts';

export interface JobSummary {
  id: string;
  appId: string;
  appName: string;
  status: JobStatus;
  request: StoredPlanRequest;
  /** The set this one revises, if it is a revision. */
  parentJobId: string | null;
  /** The slides the set has once it succeeded (a sparse listing may have given fewer than asked); null before. */
  slides: number | null;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: string;
  app_id: string;
  app_name: string;
  status: JobStatus;
  request: StoredPlanRequest;
  parent_job_id: string | null;
  slides: number | null;
  created_at: Date;
  updated_at: Date;
}

const toSummary = (r: Row): JobSummary => ({
  id: r.id,
  appId: r.app_id,
  appName: r.app_name,
  status: r.status,
  request: r.request,
  parentJobId: r.parent_job_id,
  slides: r.slides,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const SELECT = `SELECT j.id, j.app_id, a.name AS app_name, j.status, j.request, j.parent_job_id,
  jsonb_array_length(j.result->'slides') AS slides, j.created_at, j.updated_at
  FROM jobs j JOIN apps a ON a.id = j.app_id AND a.account_id = j.account_id`;

/** The account's newest sets first, optionally of one app. */
export async function listJobs(db: Queryable, accountId: string, opts: { appId?: string; limit?: number } = {}): Promise<JobSummary[]> {
  const { rows } = await db.query<Row>(
    `${SELECT} WHERE j.account_id = $1 AND ($2::text IS NULL OR j.app_id = $2) ORDER BY j.created_at DESC, j.id DESC LIMIT $3`,
    [accountId, opts.appId ?? null, opts.limit ?? 50],
  );
  return rows.map(toSummary);
}

/** One set of this account, or null. */
export async function findJobSummary(db: Queryable, accountId: string, jobId: string): Promise<JobSummary | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE j.id = $1 AND j.account_id = $2`, [jobId, accountId]);
  return rows[0] ? toSummary(rows[0]) : null;
}
