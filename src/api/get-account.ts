import { Type } from '@sinclair/typebox';
import type { AccountView } from '../accounts/account-views.ts';
import { formatInstant } from '../accounts/credits.ts';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/server.ts';
import { commonProblems, success } from './schemas.ts';

const AccountResponse = Type.Object(
  {
    id: Type.String({ examples: ['acc_01JD2ZK5T8Q3W4E5R6T7Y8U9AB'] }),
    name: Type.String({ examples: ['Acme Apps'] }),
    plan: Type.String({ description: 'The plan id: free, starter, pro or scale.', examples: ['free'] }),
    credits: Type.Object({
      allowance: Type.Integer({ description: 'The plan’s monthly credits plus grants for this period.', examples: [50] }),
      used: Type.Integer({ examples: [5] }),
      remaining: Type.Integer({ description: 'What a screenshot set is charged against now.', examples: [45] }),
      resetsAt: Type.String({ format: 'date-time', description: 'Start of the next calendar month (UTC).', examples: ['2026-12-01T00:00:00Z'] }),
    }),
  },
  { title: 'Account' },
);

// A cached view is the same object until it changes, so its JSON is built once per change.
const serialized = new WeakMap<AccountView, string>();

export function accountJson(view: AccountView): string {
  let json = serialized.get(view);
  if (json === undefined) {
    const { balance } = view;
    json = JSON.stringify({
      id: view.id,
      name: view.name,
      plan: balance.plan,
      credits: { allowance: balance.allowance, used: balance.used, remaining: balance.remaining, resetsAt: formatInstant(balance.resetsAt) },
    });
    serialized.set(view, json);
  }
  return json;
}

export function getAccount(api: Api, services: Services) {
  api.get(
    '/public/v1/account',
    {
      config: { auth: true },
      schema: {
        operationId: 'getAccount',
        summary: 'The key’s account, plan and credits',
        tags: ['account'],
        response: { 200: success(AccountResponse, 'The account that owns the key, with this month’s credits.'), ...commonProblems },
      },
    },
    async (request, reply) => {
      const view = await services.accountViews.get(principalOf(request).accountId);
      return reply.type('application/json; charset=utf-8').send(accountJson(view));
    },
  );
}
