import { Type } from '@sinclair/typebox';
import { addStoreListings, appNotFound, checkStoreUrlsInput } from '../apps/apps.ts';
import { principalOf } from '../http/auth.ts';
import { pictureLinks } from '../http/picture-links.ts';
import { fieldErrors } from '../http/problems.ts';
import type { Api, Services } from '../http/services.ts';
import { isId } from '../core/ids.ts';
import { validationFailed } from '../core/problem.ts';
import { ANDROID_URL, AppResponse, appView, IOS_URL } from './create-app.ts';
import { bodyProblems, commonProblems, problemExample, problemRef, RETRY_AFTER, success } from './schemas.ts';
import { AppParams } from './screen-schemas.ts';

export const UpdateAppBody = Type.Object(
  { iosUrl: Type.Optional(IOS_URL), androidUrl: Type.Optional(ANDROID_URL) },
  { additionalProperties: false, title: 'UpdateAppRequest', description: 'At least one of iosUrl and androidUrl.' },
);

export function updateApp(api: Api, services: Services) {
  api.patch(
    '/public/v1/apps/:appId',
    {
      config: { auth: true },
      attachValidation: true,
      schema: {
        operationId: 'updateApp',
        summary: 'Add the store listing(s) of an app',
        description:
          'Reads the App Store and/or Google Play listing of the given URL(s), as POST /public/v1/apps does, and stores it with the app: an app created from its own listing keeps its own text where the store has none (no subtitle, an empty description), and can be published from then on. Name, category and the store icon come from the store (the App Store first); an uploaded icon still outranks it. Sets already made keep their pictures; new sets are planned from the store listing. Nothing changes when a read fails.',
        tags: ['apps'],
        params: AppParams,
        body: UpdateAppBody,
        response: {
          200: success(AppResponse, 'The app with its store listing(s).'),
          ...bodyProblems,
          ...commonProblems,
          404: problemRef('No such app on this account (`app_not_found`).'),
          422: problemRef(
            'The store has no such app in that country (`store_app_not_found`).',
            problemExample('store_app_not_found', 'The App Store has no app with id 123 in the us storefront.'),
          ),
          502: problemRef(
            'The store did not answer in time or answered with an error (`store_unavailable`); see Retry-After.',
            undefined,
            RETRY_AFTER,
          ),
        },
      },
    },
    async (request) => {
      const { appId } = request.params as { appId: string };
      if (request.validationError) {
        const schemaErrors = fieldErrors(request.validationError.validation as Parameters<typeof fieldErrors>[0], 'body');
        const seen = new Set(schemaErrors.map((e) => e.field));
        throw validationFailed([...schemaErrors, ...checkStoreUrlsInput(request.body).errors.filter((e) => !seen.has(e.field))]);
      }
      const accountId = principalOf(request).accountId;
      const app = isId('app', appId)
        ? await addStoreListings(services.db, services.stores, services.objects, accountId, appId, request.body)
        : null;
      if (!app) throw appNotFound(appId);
      // Its listings changed: the facts a create's check reads are planned for them now.
      await services.planFillChecks?.(app);
      return appView(app, pictureLinks(services, request));
    },
  );
}
