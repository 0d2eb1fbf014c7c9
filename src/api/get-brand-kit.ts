import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { appNotFound } from '../apps/apps.ts';
import { brandKitView, findAppBrand } from '../brand/kit.ts';
import { BrandKitSchema } from '../core/brand-schemas.ts';
import { isId } from '../core/ids.ts';
import { AppParams } from './screen-schemas.ts';
import { commonProblems, problemRef, success } from './schemas.ts';

export function getBrandKit(api: Api, services: Services) {
  api.get(
    '/public/v1/apps/:appId/brand',
    {
      config: { auth: true },
      schema: {
        operationId: 'getBrandKit',
        summary: 'The app’s brand kit and the colours its sets are drawn with',
        description:
          "The kit (colours, font, icon badge, default theme), the colours taken from the app's icon (once its first set has read the icon) and what the next set uses. Free.",
        tags: ['apps'],
        params: AppParams,
        response: {
          200: success(BrandKitSchema, 'The brand kit.'),
          ...commonProblems,
          404: problemRef('No such app on this account (`app_not_found`).'),
        },
      },
    },
    async (request) => {
      const { appId } = request.params;
      const brand = isId('app', appId) ? await findAppBrand(services.db, principalOf(request).accountId, appId) : null;
      if (!brand) throw appNotFound(appId);
      return brandKitView(appId, brand);
    },
  );
}
