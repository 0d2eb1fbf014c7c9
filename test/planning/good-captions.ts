/** Captions a copywriter would ship for Habitly's five slides, grounded in its listing: a capable model's answer. */
export const one = (headline: string) => [{ headline, subheadline: null }];

export const GOOD_HABITLY: Record<number, { headline: string; subheadline: null }[]> = {
  1: one('Build Better Habits Daily'),
  2: one('Track Unlimited Habits'),
  3: one('Smart Reminders That Adapt'),
  4: one('Beautiful Charts and Streaks'),
  5: one('Widgets for Quick Check-Ins'),
};
