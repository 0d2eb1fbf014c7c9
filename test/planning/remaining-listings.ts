/** Listings in the shapes the held-out read found left (held-out-remaining.test.ts), written for the tests. */
import type { Listing } from '../../src/core/listing.ts';
import { habitly } from './listings.ts';

export const listingOf = (over: Partial<Listing>): Listing => ({ ...habitly, storeId: '1000000778', subtitle: null, ...over });

/** A subtitle hero whose first sentence sums up two features; a bullet list after it. */
export const garden = listingOf({
  name: 'Bloom Timeline',
  category: 'Lifestyle',
  subtitle: 'Watch how your plants thrive',
  rating: 4.6,
  ratingCount: 2100,
  description: [
    'Log water and sunlight in seconds and see every plant’s bloom on one clear timeline.',
    '',
    '• Share timelines with your gardening club',
    '• Add photos to each entry',
    '• Compare with seasonal bloom calendars',
    '• Get a nudge before the soil dries out',
  ].join('\n'),
});

/** A game whose first sentence is a list of actions with a tail: its hero is often that list cut short. */
export const kart = listingOf({
  name: 'Turbo Lanes',
  category: 'Games',
  subtitle: null,
  rating: 4.4,
  ratingCount: 98000,
  description: [
    'Slide, jump and sprint to the finish line!',
    'Speed through glowing harbours in the quickest street racer around.',
    '',
    '• 30 karts to collect and upgrade',
    '• Head-to-head duels against rivals everywhere',
    '• Tap controls anybody can master',
    '• Custom paint jobs for every kart',
    '• Daily missions that pay out bonus coins',
  ].join('\n'),
});
