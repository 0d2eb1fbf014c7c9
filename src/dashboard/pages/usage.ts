/** Usage: the plan, this month's credits (the same numbers GET /account gives) and the ledger. */
import type { FastifyInstance } from 'fastify';
import { getBalance } from '../../accounts/credits.ts';
import { listLedger, type LedgerEntry } from '../../accounts/ledger.ts';
import { SCREENSHOT_SET_COST } from '../../sets/create.ts';
import { pageContext, requireSession, sendPage, type Dashboard } from '../context.ts';
import { html } from '../html.ts';
import { page, when } from '../layout.ts';

const KIND = { charge: 'Charge', refund: 'Refund', grant: 'Grant' } as const;

function ledgerRow(e: LedgerEntry) {
  const sign = e.kind === 'charge' ? '−' : '+';
  return html`<tr>
    <td data-label="When">${when(e.createdAt)}</td>
    <td data-label="What">${KIND[e.kind]}</td>
    <td data-label="Credits" class="num ${e.kind === 'charge' ? 'minus' : 'plus'}">${sign}${e.amount}</td>
    <td data-label="Set">${e.jobId ? html`<a href="/sets/${e.jobId}"><code>${e.jobId}</code></a>` : ''}</td>
    <td data-label="Note">${e.note ?? ''}</td>
  </tr>`;
}

export function usagePage(app: FastifyInstance, dash: Dashboard): void {
  const { db, clock } = dash.services;
  app.get('/usage', async (request, reply) => {
    const session = requireSession(request);
    const ctx = pageContext(request, reply, dash);
    const [balance, ledger] = await Promise.all([getBalance(db, session.user.accountId, clock()), listLedger(db, session.user.accountId)]);
    const plan = balance.plan.charAt(0).toUpperCase() + balance.plan.slice(1);
    const usedPct = balance.allowance > 0 ? Math.min(100, Math.round((balance.used / balance.allowance) * 100)) : 0;
    return sendPage(
      reply,
      page(ctx, {
        title: 'Usage',
        body: html`<section class="card" aria-labelledby="this-month">
            <h2 id="this-month">This month</h2>
            <dl class="stats">
              <div>
                <dt>Plan</dt>
                <dd>${plan}</dd>
              </div>
              <div>
                <dt>Allowance</dt>
                <dd>${balance.allowance}</dd>
              </div>
              <div>
                <dt>Used</dt>
                <dd>${balance.used}</dd>
              </div>
              <div>
                <dt>Remaining</dt>
                <dd>${balance.remaining}</dd>
              </div>
              <div>
                <dt>Resets</dt>
                <dd>${when(balance.resetsAt)}</dd>
              </div>
            </dl>
            <progress max="100" value="${usedPct}" aria-label="Credits used this month">${usedPct}%</progress>
            <p class="hint">
              A screenshot set costs ${SCREENSHOT_SET_COST} credits; a set that fails is refunded. Unused credits do not roll over.
            </p>
          </section>
          <section aria-labelledby="ledger">
            <h2 id="ledger">Credit ledger</h2>
            ${
              ledger.length
                ? html`<div class="table-wrap">
                    <table class="stack">
                      <thead>
                        <tr>
                          <th scope="col">When</th>
                          <th scope="col">What</th>
                          <th scope="col" class="num">Credits</th>
                          <th scope="col">Set</th>
                          <th scope="col">Note</th>
                        </tr>
                      </thead>
                      <tbody>
                        ${ledger.map(ledgerRow)}
                      </tbody>
                    </table>
                  </div>`
                : html`<p>Nothing yet: charges, refunds and grants will appear here.</p>`
            }
          </section>`,
      }),
    );
  });
}
