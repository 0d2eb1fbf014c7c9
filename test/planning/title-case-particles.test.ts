/**
 * Title case keeps a phrasal verb's particle capitalised (seventh read, V: "Round up Purchases
 * Automatically"). On a listing written for the test.
 */
import { describe, expect, it } from 'vitest';
import { applyCase } from '../../src/captions/text.ts';
import { CAPTION_LENGTH_IDS } from '../../src/core/set.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

const title = (t: string) => applyCase(t, 'title', 'en', new Set());

/** A spare-change saver whose features open on phrasal verbs. */
const pot = listingOf({
  name: 'Coinpot',
  category: 'Finance',
  subtitle: 'Small change, big plans',
  rating: 4.5,
  ratingCount: 3100,
  description: [
    'Coinpot turns the change from every card payment into savings.',
    '- Round up card payments to the next pound',
    '- Set up a pot for each plan in a minute',
    '- Top up any pot from your wallet',
    '- Log in with Face ID',
    '- See how close each plan is on one chart',
  ].join('\n'),
});

describe('title case and phrasal verbs', () => {
  it('capitalises the particle right after its verb', () => {
    expect(title('Round up purchases automatically')).toBe('Round Up Purchases Automatically');
    expect(title('To-do lists that keep up with you')).toBe('To-Do Lists that Keep Up with You');
    expect(title('Sign in with Apple')).toBe('Sign In with Apple');
    expect(title('Setting up budgets in minutes')).toBe('Setting Up Budgets in Minutes');
    expect(title('Turn on dark mode')).toBe('Turn On Dark Mode');
  });

  it('keeps a preposition lower case', () => {
    expect(title('Save on groceries every week')).toBe('Save on Groceries Every Week');
    expect(title('Works on iPhone and iPad')).toBe('Works on iPhone and iPad');
    expect(title('Log workouts in seconds')).toBe('Log Workouts in Seconds');
    expect(title('Sign in seconds')).toBe('Sign in Seconds');
    expect(title('Save up to 50% on fees')).toBe('Save up to 50% on Fees');
    expect(title('Walk up the hill')).toBe('Walk up the Hill');
  });

  it('the aso-expert voice says the listing’s phrasal verbs whole', () => {
    const lowered: string[] = [];
    let particles = 0;
    for (const length of CAPTION_LENGTH_IDS)
      for (const shape of [{ count: 5 }, { count: 6 }, { narrativeId: 'benefits-first' as const }]) {
        for (const s of plan(pot, 'aso-expert', length, shape)?.slides ?? []) {
          if (/\b(Round|Set|Top|Log) (Up|In)\b/.test(s.headline)) particles++;
          if (/\b(Round|Set|Top|Log) (up|in)\b/.test(s.headline)) lowered.push(s.headline);
        }
      }
    expect(particles).toBeGreaterThan(0);
    expect(lowered).toEqual([]);
  });
});
