/**
 * What GET /account shows, cached per account because clients read it often and it changes
 * rarely. Grants, refunds and plan changes NOTIFY at commit (trigger credits_notify); a charge is
 * announced by the process that made it, after commit (NotifyBatcher), and that process also
 * evicts its own entry at once so it reads its own writes. See NotifiedCache for the rest.
 */
import type { Db } from '../db/pool.ts';
import type { Notifications } from '../db/notifications.ts';
import { NotifiedCache } from '../db/notified-cache.ts';
import { getBalance, type Balance, type Clock } from './credits.ts';

export interface AccountView {
  id: string;
  name: string;
  balance: Balance;
}

export class AccountViews {
  private readonly cache: NotifiedCache<AccountView>;

  constructor(
    private readonly db: Db,
    notifications: Notifications | null,
    private readonly clock: Clock,
  ) {
    this.cache = new NotifiedCache({ notifications, channel: 'shotgen_credits', maxEntries: 100_000, maxAgeMs: 10_000 });
  }

  /** This process changed the account's credits: forget the view before answering again. */
  invalidate(accountId: string): void {
    this.cache.invalidate(accountId);
  }

  /** The cached view, or undefined (then call get). Synchronous. */
  peek(accountId: string): AccountView | undefined {
    const cached = this.cache.get(accountId);
    return cached && this.clock() < cached.balance.resetsAt ? cached : undefined;
  }

  async get(accountId: string): Promise<AccountView> {
    const cached = this.peek(accountId);
    if (cached) return cached;
    const now = this.clock();
    const ticket = this.cache.ticket();
    const balance = await getBalance(this.db, accountId, now);
    const view = { id: accountId, name: balance.accountName, balance };
    this.cache.set(accountId, view, ticket);
    return view;
  }
}
