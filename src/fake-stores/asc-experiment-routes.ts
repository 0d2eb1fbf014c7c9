/**
 * The fake App Store Connect's product page optimization tests (the v2 experiment resources: made
 * at `/v2/appStoreVersionExperiments` with the app relationship, listed at
 * `/v1/apps/{id}/appStoreVersionExperimentsV2`, JSON:API type `appStoreVersionExperiments`; a
 * treatment names its test through `appStoreVersionExperimentV2`), their treatments and the
 * treatments' localizations, and the review submissions (`reviewSubmissions`,
 * `reviewSubmissionItems`) that send a page version or a test to App Review.
 */
import type { AscContext } from './asc-app-routes.ts';
import { collection, single, type Resource } from './asc-json.ts';
import { dataOf, relationshipId, required } from './asc-screenshot-routes.ts';
import type { AscLocalization } from './asc-state.ts';
import type { AscExperiment, AscReviewItem, AscReviewSubmission, AscTreatment, AscVariants, ReviewTarget } from './asc-variants.ts';
import { FakeError, json, type Route } from './server.ts';

const ID = '([^/]+)';
const related = (base: string, path: string) => ({ links: { related: `${base}${path}` } });

export function experimentResource(base: string, e: AscExperiment): Resource {
  return {
    type: 'appStoreVersionExperiments',
    id: e.id,
    attributes: {
      name: e.name,
      platform: e.platform,
      trafficProportion: e.trafficProportion,
      state: e.state,
      reviewRequired: true,
      startDate: e.startDate,
      endDate: e.endDate,
    },
    relationships: {
      app: { data: { type: 'apps', id: e.appId } },
      appStoreVersionExperimentTreatments: related(base, `/v2/appStoreVersionExperiments/${e.id}/appStoreVersionExperimentTreatments`),
    },
    links: { self: `${base}/v2/appStoreVersionExperiments/${e.id}` },
  };
}

export function treatmentResource(base: string, t: AscTreatment): Resource {
  return {
    type: 'appStoreVersionExperimentTreatments',
    id: t.id,
    attributes: { name: t.name, appIcon: null, appIconName: null, promotedDate: null },
    relationships: {
      appStoreVersionExperimentV2: { data: { type: 'appStoreVersionExperiments', id: t.experimentId } },
      appStoreVersionExperimentTreatmentLocalizations: related(
        base,
        `/v1/appStoreVersionExperimentTreatments/${t.id}/appStoreVersionExperimentTreatmentLocalizations`,
      ),
    },
    links: { self: `${base}/v1/appStoreVersionExperimentTreatments/${t.id}` },
  };
}

export function treatmentLocalizationResource(base: string, l: AscLocalization): Resource {
  return {
    type: 'appStoreVersionExperimentTreatmentLocalizations',
    id: l.id,
    attributes: { locale: l.locale },
    relationships: {
      appStoreVersionExperimentTreatment: { data: { type: 'appStoreVersionExperimentTreatments', id: l.versionId } },
      appScreenshotSets: related(base, `/v1/appStoreVersionExperimentTreatmentLocalizations/${l.id}/appScreenshotSets`),
    },
    links: { self: `${base}/v1/appStoreVersionExperimentTreatmentLocalizations/${l.id}` },
  };
}

function submissionResource(base: string, s: AscReviewSubmission): Resource {
  return {
    type: 'reviewSubmissions',
    id: s.id,
    attributes: {
      platform: s.platform,
      state: s.state,
      submittedDate: s.submittedAt === null ? null : new Date(s.submittedAt).toISOString(),
    },
    relationships: {
      app: { data: { type: 'apps', id: s.appId } },
      items: related(base, `/v1/reviewSubmissions/${s.id}/items`),
    },
    links: { self: `${base}/v1/reviewSubmissions/${s.id}` },
  };
}

/** The relationship an item names its content by. */
const ITEM_RELATIONSHIPS = {
  appCustomProductPageVersions: 'appCustomProductPageVersion',
  appStoreVersionExperiments: 'appStoreVersionExperimentV2',
} as const;

function itemResource(base: string, i: AscReviewItem): Resource {
  return {
    type: 'reviewSubmissionItems',
    id: i.id,
    attributes: { state: i.state },
    relationships: {
      reviewSubmission: { data: { type: 'reviewSubmissions', id: i.submissionId } },
      [ITEM_RELATIONSHIPS[i.target.type]]: { data: { ...i.target } },
    },
    links: { self: `${base}/v1/reviewSubmissionItems/${i.id}` },
  };
}

export function experimentRoutes(ctx: AscContext, v: AscVariants): Route[] {
  const { state } = ctx;
  const base = () => ctx.base();
  const list = (path: string, data: Resource[]) => json(collection(base(), path, data));
  return [
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/apps/${ID}/appStoreVersionExperimentsV2$`),
      handle: ctx.authed((req) => {
        const states = req.query.get('filter[state]')?.split(',');
        const es = v.experimentsOf(req.params[0]).filter((e) => !states || states.includes(e.state));
        return list(
          req.pathname,
          es.map((e) => experimentResource(base(), e)),
        );
      }),
    },
    {
      method: 'POST',
      pattern: /^\/v2\/appStoreVersionExperiments$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appStoreVersionExperiments');
        const { name, platform, trafficProportion } = data.attributes ?? {};
        if (typeof name !== 'string' || !name) throw required('/data/attributes/name');
        if (typeof platform !== 'string') throw required('/data/attributes/platform');
        if (typeof trafficProportion !== 'number') throw required('/data/attributes/trafficProportion');
        const e = v.createExperiment(relationshipId(data, 'app', 'apps'), name, platform, trafficProportion);
        return json(single(experimentResource(base(), e)), 201);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/appStoreVersionExperiments/${ID}$`),
      handle: ctx.authed((req) => json(single(experimentResource(base(), v.experiment(req.params[0]))))),
    },
    {
      method: 'PATCH',
      pattern: new RegExp(`^/v2/appStoreVersionExperiments/${ID}$`),
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appStoreVersionExperiments');
        if (data.id !== req.params[0]) throw new FakeError(409, 'ENTITY_ERROR.ID_MISMATCH', 'The id in the body must match the URL.');
        const a = data.attributes ?? {};
        const e = v.updateExperiment(req.params[0], {
          name: typeof a.name === 'string' ? a.name : undefined,
          trafficProportion: typeof a.trafficProportion === 'number' ? a.trafficProportion : undefined,
          started: a.started === true ? true : undefined,
        });
        return json(single(experimentResource(base(), e)));
      }),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v2/appStoreVersionExperiments/${ID}$`),
      handle: ctx.authed((req) => {
        v.deleteExperiment(req.params[0]);
        return { status: 204 };
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/appStoreVersionExperiments/${ID}/appStoreVersionExperimentTreatments$`),
      handle: ctx.authed((req) =>
        list(
          req.pathname,
          v.experiment(req.params[0]).treatmentIds.map((id) => treatmentResource(base(), v.treatment(id))),
        ),
      ),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/appStoreVersionExperimentTreatments$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appStoreVersionExperimentTreatments');
        const name = data.attributes?.name;
        if (typeof name !== 'string' || !name) throw required('/data/attributes/name');
        const experimentId = relationshipId(data, 'appStoreVersionExperimentV2', 'appStoreVersionExperiments');
        return json(single(treatmentResource(base(), v.createTreatment(experimentId, name))), 201);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appStoreVersionExperimentTreatments/${ID}$`),
      handle: ctx.authed((req) => json(single(treatmentResource(base(), v.treatment(req.params[0]))))),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v1/appStoreVersionExperimentTreatments/${ID}$`),
      handle: ctx.authed((req) => {
        v.deleteTreatment(req.params[0]);
        return { status: 204 };
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appStoreVersionExperimentTreatments/${ID}/appStoreVersionExperimentTreatmentLocalizations$`),
      handle: ctx.authed((req) =>
        list(
          req.pathname,
          v.treatment(req.params[0]).localizationIds.map((id) => treatmentLocalizationResource(base(), state.localization(id))),
        ),
      ),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/appStoreVersionExperimentTreatmentLocalizations$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appStoreVersionExperimentTreatmentLocalizations');
        const locale = data.attributes?.locale;
        if (typeof locale !== 'string' || !locale) throw required('/data/attributes/locale');
        const treatmentId = relationshipId(data, 'appStoreVersionExperimentTreatment', 'appStoreVersionExperimentTreatments');
        return json(single(treatmentLocalizationResource(base(), v.createTreatmentLocalization(treatmentId, locale))), 201);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appStoreVersionExperimentTreatmentLocalizations/${ID}$`),
      handle: ctx.authed((req) => json(single(treatmentLocalizationResource(base(), v.localization(req.params[0], 'treatment'))))),
    },
    // ——— review submissions ———
    {
      method: 'GET',
      pattern: /^\/v1\/reviewSubmissions$/,
      handle: ctx.authed((req) => {
        const app = req.query.get('filter[app]');
        if (!app) throw new FakeError(400, 'PARAMETER_ERROR.REQUIRED', "The parameter 'filter[app]' is required.");
        const states = req.query.get('filter[state]')?.split(',');
        const platforms = req.query.get('filter[platform]')?.split(',');
        const found = [...v.submissions.values()].filter(
          (s) => s.appId === app && (!states || states.includes(s.state)) && (!platforms || platforms.includes(s.platform)),
        );
        return list(
          req.pathname,
          found.map((s) => submissionResource(base(), s)),
        );
      }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/reviewSubmissions$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'reviewSubmissions');
        const platform = typeof data.attributes?.platform === 'string' ? data.attributes.platform : 'IOS';
        return json(single(submissionResource(base(), v.createSubmission(relationshipId(data, 'app', 'apps'), platform))), 201);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/reviewSubmissions/${ID}$`),
      handle: ctx.authed((req) => json(single(submissionResource(base(), v.submission(req.params[0]))))),
    },
    {
      method: 'PATCH',
      pattern: new RegExp(`^/v1/reviewSubmissions/${ID}$`),
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'reviewSubmissions');
        if (data.id !== req.params[0]) throw new FakeError(409, 'ENTITY_ERROR.ID_MISMATCH', 'The id in the body must match the URL.');
        const s = data.attributes?.submitted === true ? v.submit(req.params[0]) : v.submission(req.params[0]);
        return json(single(submissionResource(base(), s)));
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/reviewSubmissions/${ID}/items$`),
      handle: ctx.authed((req) =>
        list(
          req.pathname,
          v.submission(req.params[0]).itemIds.map((id) => itemResource(base(), v.items.get(id)!)),
        ),
      ),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/reviewSubmissionItems$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'reviewSubmissionItems');
        const submissionId = relationshipId(data, 'reviewSubmission', 'reviewSubmissions');
        const entry = Object.entries(ITEM_RELATIONSHIPS).find(([, name]) => data.relationships?.[name]?.data);
        if (!entry) throw required('/data/relationships/appCustomProductPageVersion');
        const [type, name] = entry as [ReviewTarget['type'], string];
        const target: ReviewTarget = { type, id: relationshipId(data, name, type) };
        return json(single(itemResource(base(), v.addItem(submissionId, target))), 201);
      }),
    },
  ];
}
