/** The plans of CONTRACT.md; the same rows are seeded by migration 001. */
export const PLANS = {
  free: { name: 'Free', monthlyCredits: 50 },
  starter: { name: 'Starter', monthlyCredits: 500 },
  pro: { name: 'Pro', monthlyCredits: 2500 },
  scale: { name: 'Scale', monthlyCredits: 10000 },
} as const;

export type PlanId = keyof typeof PLANS;
export const PLAN_IDS = Object.keys(PLANS) as PlanId[];
export const isPlanId = (v: string): v is PlanId => Object.hasOwn(PLANS, v);
