import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { appNotFound } from '../apps/apps.ts';
import { brandKitView, checkBrandKit, findAppBrand, saveBrandKit } from '../brand/kit.ts';
import { BrandKitBody, BrandKitSchema } from '../core/brand-schemas.ts';
import { isId } from '../core/ids.ts';
import { validationFailed } from '../core/problem.ts';
import { AppParams } from './screen-schemas.ts';
import { bodyProblems, commonProblems, problemRef, success } from './schemas.ts';

export function putBrandKit(api: Api, services: Services) {
  api.put(
    '/public/v1/apps/:appId/brand',
    {
      config: { auth: true },
      schema: {
        operationId: 'putBrandKit',
        summary: 'Replace the app’s brand kit',
        description:
          'The whole kit: an omitted field takes its default (colours: the icon’s; font `noto-sans`; no icon badge; theme `soft`). New sets of the app use it; sets already made keep their look. Free.',
        tags: ['apps'],
        params: AppParams,
        body: BrandKitBody,
        response: {
          200: success(BrandKitSchema, 'The kit as stored.'),
          ...bodyProblems,
          ...commonProblems,
          404: problemRef('No such app on this account (`app_not_found`).'),
        },
      },
    },
    async (request) => {
      const { appId } = request.params;
      const accountId = principalOf(request).accountId;
      if (!isId('app', appId)) throw appNotFound(appId);
      const { errors, kit } = checkBrandKit(request.body);
      if (errors.length) throw validationFailed(errors);
      if (!(await saveBrandKit(services.db, accountId, appId, kit))) throw appNotFound(appId);
      const brand = await findAppBrand(services.db, accountId, appId);
      if (!brand) throw appNotFound(appId);
      return brandKitView(appId, brand);
    },
  );
}
