/** The narrative catalogue: named stories a screenshot set can tell, as ordered slide roles. */
import { MAX_COUNT, type Narrative } from './set.ts';

/** Slide roles the planner knows how to caption. */
export const ROLES = ['hero', 'feature', 'benefit', 'social-proof', 'how-it-works', 'problem', 'solution', 'call-to-action'] as const;
export type Role = (typeof ROLES)[number];

export const NARRATIVES: Narrative[] = [
  {
    id: 'hero-feature-tour',
    name: 'Hero and feature tour',
    description: "Opens with the app's main promise, then shows one key feature per slide.",
    roles: ['hero', 'feature', 'feature', 'feature', 'feature'],
  },
  {
    id: 'problem-solution',
    name: 'Problem → solution',
    description: 'Names the problem the user has, shows how the app solves it, then proves it.',
    roles: ['problem', 'solution', 'feature', 'feature', 'social-proof', 'call-to-action'],
  },
  {
    id: 'social-proof-first',
    name: 'Social proof first',
    description: "Leads with the app's rating, then backs it up with the features people love.",
    roles: ['social-proof', 'hero', 'feature', 'feature', 'call-to-action'],
  },
  {
    id: 'how-it-works',
    name: 'How it works in three steps',
    description: 'A promise, then three numbered steps, then a call to action.',
    roles: ['hero', 'how-it-works', 'how-it-works', 'how-it-works', 'call-to-action'],
  },
  {
    id: 'full-tour',
    name: 'Full tour',
    description: 'Ten slides: the promise, the features and benefits, proof and a call to action.',
    roles: ['hero', 'feature', 'feature', 'benefit', 'feature', 'feature', 'social-proof', 'feature', 'benefit', 'call-to-action'],
  },
  {
    id: 'single-hero',
    name: 'Single hero',
    description: "One slide with the app's main promise, for listings that need a single strong image.",
    roles: ['hero'],
  },
  {
    id: 'benefits-first',
    name: 'Benefits first',
    description: 'Leads with what the user gains, then the features that deliver it.',
    roles: ['hero', 'benefit', 'benefit', 'feature', 'feature', 'call-to-action'],
  },
];

export function findNarrative(id: string): Narrative | null {
  return NARRATIVES.find((n) => n.id === id) ?? null;
}

/**
 * The story a set tells when no narrative is named: a hero, then features, with proof and a call to
 * action once there is room for them (a five-slide set spends four slides on features and the hero).
 */
export function defaultRoles(count: number): Role[] {
  const n = Math.max(1, Math.min(MAX_COUNT, Math.trunc(count)));
  const roles: Role[] = ['hero'];
  const tail: Role[] = n >= 8 ? ['social-proof', 'call-to-action'] : n >= 6 ? ['call-to-action'] : [];
  while (roles.length < n - tail.length) roles.push(roles.length % 4 === 3 ? 'benefit' : 'feature');
  return [...roles, ...tail];
}
