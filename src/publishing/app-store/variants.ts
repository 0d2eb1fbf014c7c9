/**
 * The variant surfaces: a custom product page (page → version → localizations) and a product
 * page optimization treatment (v2 test → treatment → localizations). Before anything is applied,
 * `prepare` finds each level or makes it, looking first and looking again before every retry
 * (findOrCreate), so a run killed or answered with a lost response never makes a second page,
 * version, test, treatment or localization. Reads before that (planning) find what exists and
 * report nothing where nothing exists yet.
 *
 * Sources: Apple's App Store Connect API pages for appCustomProductPages, …Versions,
 * …Localizations (searchKeywords since API 4.1), appStoreVersionExperiments (v2),
 * appStoreVersionExperimentTreatments, …TreatmentLocalizations. What they leave open is in
 * docs/publishing.md ("Variants").
 */
import { StoreError } from '../errors.ts';
import type { AppStoreClient, JsonApiResource } from './client.ts';
import { appLocales, findOrCreate, type LocaleTexts, type Surface } from './surfaces.ts';

/** States in which a page version or a test can still change. */
export const VARIANT_EDITABLE = ['PREPARE_FOR_SUBMISSION', 'READY_FOR_REVIEW', 'REJECTED'];
/** A new test's share of traffic when the target names none (Apple requires one). */
export const DEFAULT_TRAFFIC_PROPORTION = 30;

export type VariantTarget =
  | { kind: 'product-page' }
  | {
      kind: 'custom-product-page';
      name: string;
      id?: string;
      promotionalText?: Record<string, string>;
      keywords?: Record<string, string[]>;
      visible?: boolean;
    }
  | { kind: 'experiment-treatment'; experiment: { id?: string; name: string; trafficProportion?: number }; treatment: string };

/** What the store gave a publication's variant, saved on it (submit, the variants list). */
export interface VariantRef {
  pageId?: string;
  pageVersionId?: string;
  url?: string;
  experimentId?: string;
  treatmentId?: string;
}

type Page = JsonApiResource<{ name?: string; url?: string; visible?: boolean }> & {
  relationships?: { app?: { data?: { id?: string } } };
};
type PageVersion = JsonApiResource<{ version?: string; state?: string }>;
type Localization = JsonApiResource<{ locale: string; promotionalText?: string | null }>;
type Experiment = JsonApiResource<{
  name?: string;
  state?: string;
  trafficProportion?: number;
  startDate?: string | null;
  endDate?: string | null;
}> & {
  relationships?: { app?: { data?: { id?: string } } };
};
const running = (e: Experiment) => !!e.attributes.startDate && !e.attributes.endDate;

abstract class VariantSurface implements Surface {
  abstract readonly relationship: string;
  abstract readonly type: string;
  protected cached: Map<string, string> | null = null;

  constructor(
    protected readonly client: AppStoreClient,
    protected readonly appId: string,
    protected readonly save: (ref: VariantRef) => Promise<void>,
  ) {}

  abstract localizations(): Promise<Map<string, string>>;

  locales(): Promise<string[]> {
    return appLocales(this.client, this.appId);
  }

  protected async list<T>(path: string): Promise<T[]> {
    return (await this.client.call<{ data: T[] }>('GET', path))?.data ?? [];
  }

  protected async get<T>(path: string): Promise<T | null> {
    return (await this.client.call<{ data: T }>('GET', path, undefined, true))?.data ?? null;
  }

  protected async post<T>(type: string, attributes: Record<string, unknown>, relationships: Record<string, unknown>, path = `/v1/${type}`) {
    return (await this.client.call<{ data: T }>('POST', path, { data: { type, attributes, relationships } }, false, true))!.data;
  }

  /** A localization per locale, each looked for before it is made. */
  protected async localizationsFor(
    listPath: string,
    locales: LocaleTexts[],
    create: (l: LocaleTexts) => Promise<Localization>,
  ): Promise<Map<string, Localization>> {
    const byLocale = async () => new Map((await this.list<Localization>(listPath)).map((l) => [l.attributes.locale, l]));
    const have = await byLocale();
    for (const l of locales)
      if (!have.has(l.locale))
        have.set(
          l.locale,
          await findOrCreate(
            this.client,
            async () => (await byLocale()).get(l.locale) ?? null,
            () => create(l),
          ),
        );
    return have;
  }
}

const link = (type: string, id: string) => ({ data: { type, id } });

export class CustomProductPageSurface extends VariantSurface {
  readonly relationship = 'appCustomProductPageLocalization';
  readonly type = 'appCustomProductPageLocalizations';

  constructor(
    client: AppStoreClient,
    appId: string,
    save: (ref: VariantRef) => Promise<void>,
    private readonly target: Extract<VariantTarget, { kind: 'custom-product-page' }>,
  ) {
    super(client, appId, save);
  }

  async localizations(): Promise<Map<string, string>> {
    if (this.cached) return this.cached;
    const page = await this.findPage();
    const version = page ? await this.editableVersion(page.id) : null;
    const ls = version
      ? await this.list<Localization>(`/v1/appCustomProductPageVersions/${version.id}/appCustomProductPageLocalizations?limit=50`)
      : [];
    this.cached = new Map(ls.map((l) => [l.attributes.locale, l.id]));
    return this.cached;
  }

  async prepare(locales: LocaleTexts[]): Promise<void> {
    const page = await findOrCreate(
      this.client,
      () => this.findPage(),
      () => this.createPage(locales),
    );
    if (this.target.visible !== undefined && page.attributes.visible !== this.target.visible)
      await this.client.call('PATCH', `/v1/appCustomProductPages/${page.id}`, {
        data: { type: 'appCustomProductPages', id: page.id, attributes: { visible: this.target.visible } },
      });
    // An approved page (or one in review) gets a new version; an editable one is used as it is.
    const version = await findOrCreate(
      this.client,
      () => this.editableVersion(page.id),
      () => this.post<PageVersion>('appCustomProductPageVersions', {}, { appCustomProductPage: link('appCustomProductPages', page.id) }),
    );
    const ls = await this.localizationsFor(
      `/v1/appCustomProductPageVersions/${version.id}/appCustomProductPageLocalizations?limit=50`,
      locales,
      (l) =>
        this.post<Localization>(
          'appCustomProductPageLocalizations',
          { locale: l.locale, ...(l.promotionalText !== undefined ? { promotionalText: l.promotionalText } : {}) },
          { appCustomProductPageVersion: link('appCustomProductPageVersions', version.id) },
        ),
    );
    for (const l of locales) await this.texts(ls.get(l.locale)!, l);
    this.cached = new Map([...ls].map(([locale, l]) => [locale, l.id]));
    await this.save({ pageId: page.id, pageVersionId: version.id, url: page.attributes.url });
  }

  /** Promotional text and search keywords as the target gives them; what it does not name is left alone. */
  private async texts(l: Localization, want: LocaleTexts): Promise<void> {
    if (want.promotionalText !== undefined && (l.attributes.promotionalText ?? '') !== want.promotionalText)
      await this.client.call('PATCH', `/v1/appCustomProductPageLocalizations/${l.id}`, {
        data: { type: 'appCustomProductPageLocalizations', id: l.id, attributes: { promotionalText: want.promotionalText } },
      });
    if (!want.keywords) return;
    const have = (await this.list<{ id: string }>(`/v1/appCustomProductPageLocalizations/${l.id}/searchKeywords?limit=200`)).map(
      (k) => k.id,
    );
    const path = `/v1/appCustomProductPageLocalizations/${l.id}/relationships/searchKeywords`;
    const linkages = (ks: string[]) => ({ data: ks.map((id) => ({ type: 'appKeywords', id })) });
    const add = want.keywords.filter((k) => !have.includes(k));
    const remove = have.filter((k) => !want.keywords!.includes(k));
    // Both idempotent: a retried call adds or removes nothing twice.
    if (remove.length) await this.client.call('DELETE', path, linkages(remove));
    if (add.length) await this.client.call('POST', path, linkages(add));
  }

  private async findPage(): Promise<Page | null> {
    if (this.target.id) {
      const page = await this.get<Page>(`/v1/appCustomProductPages/${encodeURIComponent(this.target.id)}`);
      const appOf = page?.relationships?.app?.data?.id;
      if (!page || (appOf && appOf !== this.appId))
        throw new StoreError('refused', `App ${this.appId} has no custom product page ${this.target.id} on App Store Connect`);
      return page;
    }
    const pages = await this.list<Page>(
      `/v1/apps/${encodeURIComponent(this.appId)}/appCustomProductPages?filter[name]=${encodeURIComponent(this.target.name)}&limit=200`,
    );
    // Matched here too: a store that ignores the filter answers every page.
    return pages.find((p) => p.attributes.name === this.target.name) ?? null;
  }

  private async editableVersion(pageId: string): Promise<PageVersion | null> {
    const versions = await this.list<PageVersion>(`/v1/appCustomProductPages/${pageId}/appCustomProductPageVersions?limit=50`);
    return versions.find((v) => VARIANT_EDITABLE.includes(v.attributes.state ?? '')) ?? null;
  }

  /** The page with its first version and a localization per locale, in one request (Apple's `included`). */
  private async createPage(locales: LocaleTexts[]): Promise<Page> {
    const res = await this.client.call<{ data: Page }>(
      'POST',
      '/v1/appCustomProductPages',
      {
        data: {
          type: 'appCustomProductPages',
          attributes: { name: this.target.name },
          relationships: {
            app: link('apps', this.appId),
            appCustomProductPageVersions: { data: [{ type: 'appCustomProductPageVersions', id: '${version}' }] },
          },
        },
        included: [
          {
            type: 'appCustomProductPageVersions',
            id: '${version}',
            relationships: {
              appCustomProductPageLocalizations: {
                data: locales.map((_, i) => ({ type: 'appCustomProductPageLocalizations', id: `\${localization-${i}}` })),
              },
            },
          },
          ...locales.map((l, i) => ({
            type: 'appCustomProductPageLocalizations',
            id: `\${localization-${i}}`,
            attributes: { locale: l.locale, ...(l.promotionalText !== undefined ? { promotionalText: l.promotionalText } : {}) },
          })),
        ],
      },
      false,
      true,
    );
    return res!.data;
  }
}

export class TreatmentSurface extends VariantSurface {
  readonly relationship = 'appStoreVersionExperimentTreatmentLocalization';
  readonly type = 'appStoreVersionExperimentTreatmentLocalizations';

  constructor(
    client: AppStoreClient,
    appId: string,
    save: (ref: VariantRef) => Promise<void>,
    private readonly target: Extract<VariantTarget, { kind: 'experiment-treatment' }>,
  ) {
    super(client, appId, save);
  }

  async localizations(): Promise<Map<string, string>> {
    if (this.cached) return this.cached;
    const experiment = await this.findExperiment();
    const treatment = experiment ? await this.findTreatment(experiment.id) : null;
    const ls = treatment ? await this.list<Localization>(this.localizationsPath(treatment.id)) : [];
    this.cached = new Map(ls.map((l) => [l.attributes.locale, l.id]));
    return this.cached;
  }

  async prepare(locales: LocaleTexts[]): Promise<void> {
    let made = false;
    const wanted = this.target.experiment;
    const experiment = await findOrCreate(
      this.client,
      () => this.findExperiment(),
      async () => {
        const e = await this.post<Experiment>(
          'appStoreVersionExperiments',
          { name: wanted.name, platform: 'IOS', trafficProportion: wanted.trafficProportion ?? DEFAULT_TRAFFIC_PROPORTION },
          { app: link('apps', this.appId) },
          '/v2/appStoreVersionExperiments',
        );
        made = true;
        return e;
      },
    );
    const state = experiment.attributes.state ?? '';
    if (!VARIANT_EDITABLE.includes(state) || running(experiment))
      throw new StoreError(
        'refused',
        `The test '${experiment.attributes.name}' is ${running(experiment) ? 'running' : state} on App Store Connect; its treatments can no longer change. Name a new test.`,
      );
    if (wanted.trafficProportion !== undefined && experiment.attributes.trafficProportion !== wanted.trafficProportion)
      await this.client.call('PATCH', `/v2/appStoreVersionExperiments/${experiment.id}`, {
        data: { type: 'appStoreVersionExperiments', id: experiment.id, attributes: { trafficProportion: wanted.trafficProportion } },
      });
    let treatment: JsonApiResource;
    try {
      treatment = await findOrCreate(
        this.client,
        () => this.findTreatment(experiment.id),
        () =>
          this.post(
            'appStoreVersionExperimentTreatments',
            { name: this.target.treatment },
            {
              appStoreVersionExperimentV2: link('appStoreVersionExperiments', experiment.id),
            },
          ),
      );
    } catch (e) {
      // A test this run made and whose treatment the store refused would be left empty behind.
      if (made && e instanceof StoreError && e.kind === 'refused')
        await this.client.call('DELETE', `/v2/appStoreVersionExperiments/${experiment.id}`, undefined, true).catch(() => undefined);
      throw e;
    }
    const ls = await this.localizationsFor(this.localizationsPath(treatment.id), locales, (l) =>
      this.post<Localization>(
        'appStoreVersionExperimentTreatmentLocalizations',
        { locale: l.locale },
        { appStoreVersionExperimentTreatment: link('appStoreVersionExperimentTreatments', treatment.id) },
      ),
    );
    this.cached = new Map([...ls].map(([locale, l]) => [locale, l.id]));
    await this.save({ experimentId: experiment.id, treatmentId: treatment.id });
  }

  private localizationsPath = (treatmentId: string) =>
    `/v1/appStoreVersionExperimentTreatments/${treatmentId}/appStoreVersionExperimentTreatmentLocalizations?limit=50`;

  /** By id, else the newest test of that name that has not ended (an ended one is history, not a target). */
  private async findExperiment(): Promise<Experiment | null> {
    const { id, name } = this.target.experiment;
    if (id) {
      const e = await this.get<Experiment>(`/v2/appStoreVersionExperiments/${encodeURIComponent(id)}`);
      const appOf = e?.relationships?.app?.data?.id;
      if (!e || (appOf && appOf !== this.appId))
        throw new StoreError('refused', `App ${this.appId} has no product page optimization test ${id} on App Store Connect`);
      return e;
    }
    const all = await this.list<Experiment>(`/v1/apps/${encodeURIComponent(this.appId)}/appStoreVersionExperimentsV2?limit=200`);
    const named = all.filter((e) => e.attributes.name === name && !['COMPLETED', 'STOPPED'].includes(e.attributes.state ?? ''));
    return named.at(-1) ?? null;
  }

  private async findTreatment(experimentId: string): Promise<JsonApiResource | null> {
    const ts = await this.list<JsonApiResource<{ name?: string }>>(
      `/v2/appStoreVersionExperiments/${experimentId}/appStoreVersionExperimentTreatments?limit=50`,
    );
    return ts.find((t) => t.attributes.name === this.target.treatment) ?? null;
  }
}

/** The surface a publication's target writes to; `save` records what the store gave it. */
export function variantSurface(
  client: AppStoreClient,
  appId: string,
  target: VariantTarget,
  save: (ref: VariantRef) => Promise<void>,
): Surface | null {
  if (target.kind === 'custom-product-page') return new CustomProductPageSurface(client, appId, save, target);
  if (target.kind === 'experiment-treatment') return new TreatmentSurface(client, appId, save, target);
  return null;
}
