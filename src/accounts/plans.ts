/**
 * The plan ids of CONTRACT.md. Names and monthly allowances live in the `plans` table (seeded by
 * migration 001), the one place charges and balances read them from.
 */
export const PLAN_IDS = ['free', 'starter', 'pro', 'scale'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export const isPlanId = (v: string): v is PlanId => (PLAN_IDS as readonly string[]).includes(v);
