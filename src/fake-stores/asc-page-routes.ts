/**
 * The fake App Store Connect's custom product pages, as Apple's endpoint pages show them: a page
 * made with its first version and localizations in one POST (`included`), its versions, each
 * version's localizations (promotional text; search keywords as `appKeywords` linkages), and the
 * page's URL with its `ppid`. The screenshot sets of a page localization are served by
 * asc-screenshot-routes.ts, its placements by asc-library.ts.
 */
import type { AscContext } from './asc-app-routes.ts';
import { collection, single, type Resource } from './asc-json.ts';
import { badRequest, dataOf, relationshipId, required } from './asc-screenshot-routes.ts';
import type { AscLocalization } from './asc-state.ts';
import type { AscPage, AscPageVersion, AscVariants } from './asc-variants.ts';
import { FakeError, json, parseJson, type Route } from './server.ts';

const ID = '([^/]+)';

const related = (base: string, type: string, id: string, name: string) => ({
  links: { self: `${base}/v1/${type}/${id}/relationships/${name}`, related: `${base}/v1/${type}/${id}/${name}` },
});

export function pageResource(base: string, page: AscPage): Resource {
  return {
    type: 'appCustomProductPages',
    id: page.id,
    attributes: { name: page.name, url: `https://apps.apple.com/us/app/id${page.appId}?ppid=${page.id}`, visible: page.visible },
    relationships: {
      app: { data: { type: 'apps', id: page.appId } },
      appCustomProductPageVersions: related(base, 'appCustomProductPages', page.id, 'appCustomProductPageVersions'),
    },
    links: { self: `${base}/v1/appCustomProductPages/${page.id}` },
  };
}

export function pageVersionResource(base: string, version: AscPageVersion): Resource {
  return {
    type: 'appCustomProductPageVersions',
    id: version.id,
    attributes: { version: version.version, state: version.state, deepLink: null },
    relationships: {
      appCustomProductPage: { data: { type: 'appCustomProductPages', id: version.pageId } },
      appCustomProductPageLocalizations: related(base, 'appCustomProductPageVersions', version.id, 'appCustomProductPageLocalizations'),
    },
    links: { self: `${base}/v1/appCustomProductPageVersions/${version.id}` },
  };
}

export function pageLocalizationResource(base: string, l: AscLocalization): Resource {
  return {
    type: 'appCustomProductPageLocalizations',
    id: l.id,
    attributes: { locale: l.locale, promotionalText: l.promotionalText ?? null },
    relationships: {
      appCustomProductPageVersion: { data: { type: 'appCustomProductPageVersions', id: l.versionId } },
      appScreenshotSets: related(base, 'appCustomProductPageLocalizations', l.id, 'appScreenshotSets'),
      searchKeywords: related(base, 'appCustomProductPageLocalizations', l.id, 'searchKeywords'),
    },
    links: { self: `${base}/v1/appCustomProductPageLocalizations/${l.id}` },
  };
}

const text = (v: unknown, pointer: string): string => {
  if (typeof v !== 'string' || !v) throw required(pointer);
  return v;
};
const optionalText = (v: unknown): string | null => (typeof v === 'string' ? v : null);

interface Included {
  type?: unknown;
  id?: unknown;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: unknown }>;
}

/** `{ data: [{ type: 'appKeywords', id }] }` as the keyword texts. */
function keywordLinkages(body: unknown): string[] {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) throw required('/data');
  return data.map((l: { type?: unknown; id?: unknown }) => {
    if (l?.type !== 'appKeywords' || typeof l.id !== 'string' || !l.id)
      throw new FakeError(409, 'ENTITY_ERROR.TYPE_MISMATCH', "Each linkage must be of type 'appKeywords' with the keyword as its id.");
    return l.id;
  });
}

export function pageRoutes(ctx: AscContext, v: AscVariants): Route[] {
  const { state } = ctx;
  const base = () => ctx.base();
  const versionsOf = (page: AscPage) => page.versionIds.map((id) => v.pageVersion(id));
  return [
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/apps/${ID}/appCustomProductPages$`),
      handle: ctx.authed((req) => {
        const names = req.query.get('filter[name]')?.split(',');
        const pages = v.pagesOf(req.params[0]).filter((p) => !names || names.includes(p.name));
        return json(
          collection(
            base(),
            req.pathname,
            pages.map((p) => pageResource(base(), p)),
          ),
        );
      }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/appCustomProductPages$/,
      handle: ctx.authed((req) => {
        const doc = parseJson(req, badRequest) as { included?: Included[] };
        const data = dataOf(req, 'appCustomProductPages');
        const name = text(data.attributes?.name, '/data/attributes/name');
        const appId = relationshipId(data, 'app', 'apps');
        // The first version and its localizations come inline, as in Apple's example.
        const included = Array.isArray(doc.included) ? doc.included : [];
        const localizations = included
          .filter((i) => i?.type === 'appCustomProductPageLocalizations')
          .map((i) => ({
            locale: text(i.attributes?.locale, '/included/attributes/locale'),
            promotionalText: optionalText(i.attributes?.promotionalText),
          }));
        const page = v.createPage(appId, name, localizations);
        const version = v.pageVersion(page.versionIds[0]);
        return json(
          single(pageResource(base(), page), [
            pageVersionResource(base(), version),
            ...version.localizationIds.map((id) => pageLocalizationResource(base(), state.localization(id))),
          ]),
          201,
        );
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appCustomProductPages/${ID}$`),
      handle: ctx.authed((req) => json(single(pageResource(base(), v.page(req.params[0]))))),
    },
    {
      method: 'PATCH',
      pattern: new RegExp(`^/v1/appCustomProductPages/${ID}$`),
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appCustomProductPages');
        const page = v.page(req.params[0]);
        if (data.id !== page.id) throw new FakeError(409, 'ENTITY_ERROR.ID_MISMATCH', 'The id in the body must match the URL.');
        const { name, visible } = data.attributes ?? {};
        if (typeof name === 'string' && name) page.name = name;
        if (typeof visible === 'boolean') page.visible = visible;
        return json(single(pageResource(base(), page)));
      }),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v1/appCustomProductPages/${ID}$`),
      handle: ctx.authed((req) => {
        const page = v.page(req.params[0]);
        v.pages.delete(page.id);
        return { status: 204 };
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appCustomProductPages/${ID}/appCustomProductPageVersions$`),
      handle: ctx.authed((req) =>
        json(
          collection(
            base(),
            req.pathname,
            versionsOf(v.page(req.params[0])).map((x) => pageVersionResource(base(), x)),
          ),
        ),
      ),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/appCustomProductPageVersions$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appCustomProductPageVersions');
        const pageId = relationshipId(data, 'appCustomProductPage', 'appCustomProductPages');
        return json(single(pageVersionResource(base(), v.createPageVersion(pageId))), 201);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appCustomProductPageVersions/${ID}$`),
      handle: ctx.authed((req) => json(single(pageVersionResource(base(), v.pageVersion(req.params[0]))))),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appCustomProductPageVersions/${ID}/appCustomProductPageLocalizations$`),
      handle: ctx.authed((req) => {
        const locales = req.query.get('filter[locale]')?.split(',');
        const ls = v
          .pageVersion(req.params[0])
          .localizationIds.map((id) => state.localization(id))
          .filter((l) => !locales || locales.includes(l.locale));
        return json(
          collection(
            base(),
            req.pathname,
            ls.map((l) => pageLocalizationResource(base(), l)),
          ),
        );
      }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/appCustomProductPageLocalizations$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appCustomProductPageLocalizations');
        const versionId = relationshipId(data, 'appCustomProductPageVersion', 'appCustomProductPageVersions');
        const locale = text(data.attributes?.locale, '/data/attributes/locale');
        const l = v.createPageLocalization(versionId, locale, optionalText(data.attributes?.promotionalText));
        return json(single(pageLocalizationResource(base(), l)), 201);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appCustomProductPageLocalizations/${ID}$`),
      handle: ctx.authed((req) => json(single(pageLocalizationResource(base(), v.localization(req.params[0], 'page'))))),
    },
    {
      method: 'PATCH',
      pattern: new RegExp(`^/v1/appCustomProductPageLocalizations/${ID}$`),
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appCustomProductPageLocalizations');
        const l = v.localization(req.params[0], 'page');
        if (data.id !== l.id) throw new FakeError(409, 'ENTITY_ERROR.ID_MISMATCH', 'The id in the body must match the URL.');
        // Apple: promotional text may change at any time, whatever the version's state.
        if ('promotionalText' in (data.attributes ?? {})) l.promotionalText = optionalText(data.attributes?.promotionalText);
        return json(single(pageLocalizationResource(base(), l)));
      }),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v1/appCustomProductPageLocalizations/${ID}$`),
      handle: ctx.authed((req) => {
        const l = v.localization(req.params[0], 'page');
        state.assertEditable(l.id);
        const version = v.pageVersion(l.versionId);
        version.localizationIds = version.localizationIds.filter((id) => id !== l.id);
        state.localizations.delete(l.id);
        return { status: 204 };
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appCustomProductPageLocalizations/${ID}/searchKeywords$`),
      handle: ctx.authed((req) => {
        const l = v.localization(req.params[0], 'page');
        return json({
          data: (l.keywords ?? []).map((k) => ({ type: 'appKeywords', id: k, links: { self: `${base()}/v1/appKeywords/${k}` } })),
          links: { self: `${base()}${req.pathname}` },
          meta: { paging: { total: (l.keywords ?? []).length, limit: 200 } },
        });
      }),
    },
    {
      method: 'POST',
      pattern: new RegExp(`^/v1/appCustomProductPageLocalizations/${ID}/relationships/searchKeywords$`),
      handle: ctx.authed((req) => {
        v.setKeywords(req.params[0], keywordLinkages(parseJson(req, badRequest)), []);
        return { status: 204 };
      }),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v1/appCustomProductPageLocalizations/${ID}/relationships/searchKeywords$`),
      handle: ctx.authed((req) => {
        v.setKeywords(req.params[0], [], keywordLinkages(parseJson(req, badRequest)));
        return { status: 204 };
      }),
    },
  ];
}
