import { Type, type Static } from '@sinclair/typebox';
import type { AccountView } from '../accounts/account-views.ts';
import { formatInstant } from '../accounts/credits.ts';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
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
      resetsAt: Type.String({
        format: 'date-time',
        description: 'Start of the next calendar month (UTC).',
        examples: ['2026-12-01T00:00:00Z'],
      }),
    }),
  },
  { title: 'Account' },
);

type AccountBody = Static<typeof AccountResponse>;

// A cached view is answered many times: its body is built and serialized once (formatting the
// reset instant, then the JSON, showed in the profile), and goes when the view does. A string
// with a JSON content type is sent as it is; the tests check it against the response schema.
const bodies = new WeakMap<AccountView, string>();
const JSON_TYPE = 'application/json; charset=utf-8';

function accountBody(view: AccountView): string {
  let body = bodies.get(view);
  if (!body) {
    body = JSON.stringify(buildBody(view));
    bodies.set(view, body);
  }
  return body;
}

function buildBody(view: AccountView): AccountBody {
  const { balance } = view;
  return {
    id: view.id,
    name: view.name,
    plan: balance.plan,
    credits: { allowance: balance.allowance, used: balance.used, remaining: balance.remaining, resetsAt: formatInstant(balance.resetsAt) },
  };
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
    (request, reply) => {
      const accountId = principalOf(request).accountId;
      // A cached view (the common case) is answered without a promise and the microtasks that
      // resolving one through Fastify costs; a miss reads the database.
      const view = services.accountViews.peek(accountId);
      reply.type(JSON_TYPE);
      if (view) return reply.send(accountBody(view));
      return services.accountViews.get(accountId).then(accountBody);
    },
  );
}
