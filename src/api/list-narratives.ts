import { Type, type Static } from '@sinclair/typebox';
import type { Api, Services } from '../http/services.ts';
import { NARRATIVES } from '../core/narratives.ts';
import { commonProblems, success } from './schemas.ts';

const NarrativesResponse = Type.Object(
  {
    narratives: Type.Array(
      Type.Object({
        id: Type.String({ description: 'The slug to send as narrativeId.', examples: ['hero-feature-tour'] }),
        name: Type.String(),
        description: Type.String(),
        slideCount: Type.Integer({ minimum: 1, maximum: 10 }),
        roles: Type.Array(Type.String(), { description: 'The part each slide plays in the story, in order.' }),
      }),
    ),
  },
  { title: 'NarrativeCatalogue' },
);

const CATALOGUE: Static<typeof NarrativesResponse> = {
  narratives: NARRATIVES.map((n) => ({ id: n.id, name: n.name, description: n.description, slideCount: n.roles.length, roles: n.roles })),
};

export function listNarratives(api: Api, _services: Services) {
  api.get(
    '/public/v1/narratives',
    {
      config: { auth: true },
      schema: {
        operationId: 'listNarratives',
        summary: 'The narrative catalogue',
        description: 'Each narrative is a story a screenshot set can tell; send its id as narrativeId to POST /public/v1/screenshots.',
        tags: ['catalogue'],
        response: { 200: success(NarrativesResponse, 'Every narrative a screenshot set can follow.'), ...commonProblems },
      },
    },
    async () => CATALOGUE,
  );
}
