/**
 * What a writer of captions is handed: the set as planning drafted it (roles, the checker's
 * context, the rule writer's caption per slide) without the parts only planning finishes (screens,
 * look). The model writer fills it; planning's pipeline turns the words into the set.
 */
import type { Role } from '../core/narratives.ts';
import type { PlanInput } from '../core/set.ts';
import type { CheckContext } from './checker/check.ts';
import type { Caption } from './rules/writer.ts';
import type { Understanding } from './understand.ts';

/** A slide's final words and who wrote them. */
export interface Written {
  headline: string;
  subheadline: string | null;
  source: 'model' | 'rules' | 'user';
}

export interface CaptionDraft {
  input: PlanInput;
  roles: Role[];
  /** The rule writer's caption per slide, each one the checker passes; null where it has none. */
  rules: (Caption | null)[];
  check: CheckContext;
  u: Understanding;
}
