/**
 * The fake App Store Connect's read side above the screenshots: an app, its versions per platform (filtered
 * the way fastlane asks for the editable one), and a version's localizations.
 */
import type { AscState } from './asc-state.ts';
import { appResource, collection, localizationResource, single, versionResource } from './asc-json.ts';
import { json, type FakeRequest, type Reply, type Route } from './server.ts';

export interface AscContext {
  state: AscState;
  /** The fake's base URL, for links and upload operations. */
  base(): string;
  /** Only requests with a valid bearer token reach a handler. */
  authed(handle: (req: FakeRequest) => Reply | Promise<Reply>): (req: FakeRequest) => Promise<Reply>;
}

const ID = '([^/]+)';

/** `filter[x]=A,B` as a list, or undefined when the query does not filter on x. */
export function filterOf(req: FakeRequest, name: string): string[] | undefined {
  const value = req.query.get(`filter[${name}]`);
  return value === null ? undefined : value.split(',').filter(Boolean);
}

export function appRoutes(ctx: AscContext): Route[] {
  const { state } = ctx;
  return [
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/apps/${ID}$`),
      handle: ctx.authed((req) => json(single(appResource(ctx.base(), state.app(req.params[0]))))),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/apps/${ID}/appStoreVersions$`),
      handle: ctx.authed((req) => {
        const platforms = filterOf(req, 'platform');
        const states = filterOf(req, 'appStoreState') ?? filterOf(req, 'appVersionState');
        const versionStrings = filterOf(req, 'versionString');
        const versions = state
          .app(req.params[0])
          .versionIds.map((id) => state.version(id))
          .filter((v) => !platforms || platforms.includes(v.platform))
          .filter((v) => !states || states.includes(v.state) || (v.state === 'READY_FOR_SALE' && states.includes('READY_FOR_DISTRIBUTION')))
          .filter((v) => !versionStrings || versionStrings.includes(v.versionString));
        return json(
          collection(
            ctx.base(),
            req.pathname,
            versions.map((v) => versionResource(ctx.base(), v)),
          ),
        );
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appStoreVersions/${ID}$`),
      handle: ctx.authed((req) => json(single(versionResource(ctx.base(), state.version(req.params[0]))))),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appStoreVersions/${ID}/appStoreVersionLocalizations$`),
      handle: ctx.authed((req) => {
        const locales = filterOf(req, 'locale');
        const localizations = state
          .version(req.params[0])
          .localizationIds.map((id) => state.localization(id))
          .filter((l) => !locales || locales.includes(l.locale));
        return json(
          collection(
            ctx.base(),
            req.pathname,
            localizations.map((l) => localizationResource(ctx.base(), l)),
          ),
        );
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appStoreVersionLocalizations/${ID}$`),
      handle: ctx.authed((req) => json(single(localizationResource(ctx.base(), state.localization(req.params[0]))))),
    },
  ];
}
