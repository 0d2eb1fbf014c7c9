/**
 * What GET /account shows, cached per account because clients read it often and it changes
 * rarely. Every change to an account or its credits NOTIFYs at commit (triggers credits_notify
 * and accounts_notify), which evicts the entry in every process; this process also evicts right
 * after its own charges so it reads its own writes. Nothing is cached while LISTEN is down.
 */
import type { Db } from '../db/pool.ts';
import type { Notifications } from '../db/notifications.ts';
import { getBalance, type Balance, type Clock } from './credits.ts';

export interface AccountView {
  id: string;
  name: string;
  balance: Balance;
}

export class AccountViews {
  private readonly cache = new Map<string, AccountView>();
  private generation = 0;

  constructor(private readonly db: Db, private readonly notifications: Notifications | null, private readonly clock: Clock) {
    notifications?.subscribe('shotgen_credits', {
      onNotify: (accountId) => this.invalidate(accountId),
      onReset: () => {
        this.generation++;
        this.cache.clear();
      },
    });
  }

  invalidate(accountId: string): void {
    this.generation++;
    this.cache.delete(accountId);
  }

  async get(accountId: string): Promise<AccountView> {
    const now = this.clock();
    const cached = this.cache.get(accountId);
    if (cached && now < cached.balance.resetsAt) return cached;
    const generation = this.generation;
    const balance = await getBalance(this.db, accountId, now);
    const view = { id: accountId, name: balance.accountName, balance };
    if (this.notifications?.connected && generation === this.generation) {
      if (this.cache.size > 100_000) this.cache.clear();
      this.cache.set(accountId, view);
    }
    return view;
  }
}
