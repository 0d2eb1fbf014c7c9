/**
 * Several accounts' charges in one statement (below ./charge-batches.ts, which batches one
 * account's). While `limit` gathered statements are in flight, the groups that arrive wait here and
 * then go together: one statement, one commit, one round trip for many accounts.
 *
 * Why: with many accounts creating at once, each had its own statement, and the create bench at
 * 25 accounts spent most of the service's and PostgreSQL's CPU on per-statement work (the round
 * trip, the commit) rather than on the rows.
 *
 * Exactness does not change: each group (one account and credit period) is charged whole or not at
 * all, with an answer per group; a group not charged (short of credits, a stale check, no period
 * row yet) and every group of a statement that failed (nothing of it was written) get null, and
 * their caller charges them as before, alone, for its own answer or refusal.
 */

/** At most this many groups (accounts) go in one statement. */
export const MAX_GROUPS = 32;

interface Waiting<G, R> {
  group: G;
  resolve: (r: R | null) => void;
}

export class ChargeGather<G, R> {
  private readonly waiting: Waiting<G, R>[] = [];
  private inFlight = 0;
  /** Statements run so far with more than one group (for tests and the bench). */
  combined = 0;

  constructor(
    /** One statement for these groups: an answer per group, in order, null for one not charged. */
    private readonly run: (groups: G[]) => Promise<(R | null)[]>,
    /** Gathered statements in flight at once. */
    private readonly limit: number,
  ) {}

  /** The group's answer, or null when it was not charged (nothing of it was written). */
  charge(group: G): Promise<R | null> {
    return new Promise((resolve) => {
      this.waiting.push({ group, resolve });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.limit && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_GROUPS);
      this.inFlight++;
      if (batch.length > 1) this.combined++;
      this.run(batch.map((w) => w.group))
        .then(
          (answers) => batch.forEach((w, i) => w.resolve(answers[i] ?? null)),
          // One statement: nothing of it was written. Each group goes alone, for its own answer.
          () => batch.forEach((w) => w.resolve(null)),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }
}
