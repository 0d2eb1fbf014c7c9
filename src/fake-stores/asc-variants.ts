/**
 * What the fake App Store Connect holds beside the product page: custom product pages (a page, its
 * versions, their localizations with promotional text and search keywords), product-page-
 * optimization tests (v2 experiments, their treatments, the treatments' localizations) and the
 * review submissions that send either to App Review. Screenshot sets hang from these
 * localizations as from a version's (asc-state.ts, `kind`), so the screenshot routes serve them
 * unchanged.
 *
 * Apple's limits and states, as Apple's pages and third-party clients describe them; where those
 * are silent the fake decides, and docs/publishing.md lists each such decision:
 * - at most `pageLimit` custom product pages per app (70 by default; 35 before October 2025), names
 *   unique per app;
 * - a page version can change in PREPARE_FOR_SUBMISSION, READY_FOR_REVIEW (in a submission not yet
 *   sent) and REJECTED; a new version is refused while such a version exists, and starts as a copy
 *   of the newest one (localizations, keywords, screenshots);
 * - a test needs a version ready for distribution
 *   (STATE_ERROR.PPO_CREATE_ONLY_ALLOWED_WITH_APP_STORE_DISTRIBUTION), is refused while another
 *   of the app runs, holds at most 3 treatments, and changes only while being prepared;
 * - one review submission in preparation (READY_FOR_REVIEW) per app and platform; an item is added
 *   once; `submitted: true` sends every item to WAITING_FOR_REVIEW; the review itself is
 *   `completeReview` (or `reviewDelayMs` after submission, for `shotgen fake-stores`).
 */
import { randomUUID } from 'node:crypto';
import { conflict, notFound, type AscLocalization, type AscState } from './asc-state.ts';
import { FakeError } from './server.ts';

export const VARIANT_EDITABLE = ['PREPARE_FOR_SUBMISSION', 'READY_FOR_REVIEW', 'REJECTED'];
export const MAX_TREATMENTS = 3;
export const DEFAULT_PAGE_LIMIT = 70;
/** States of a released version: a test needs one. */
const DISTRIBUTED = ['READY_FOR_SALE', 'READY_FOR_DISTRIBUTION', 'PREORDER_READY_FOR_SALE'];

export interface AscPage {
  id: string;
  appId: string;
  name: string;
  visible: boolean;
  versionIds: string[];
}
export interface AscPageVersion {
  id: string;
  pageId: string;
  version: string;
  state: string;
  localizationIds: string[];
}
export interface AscExperiment {
  id: string;
  appId: string;
  name: string;
  platform: string;
  trafficProportion: number;
  state: string;
  startDate: string | null;
  endDate: string | null;
  treatmentIds: string[];
}
export interface AscTreatment {
  id: string;
  experimentId: string;
  name: string;
  localizationIds: string[];
}
/** What a review submission item sends to review. */
export type ReviewTarget = { type: 'appCustomProductPageVersions' | 'appStoreVersionExperiments'; id: string };
export interface AscReviewSubmission {
  id: string;
  appId: string;
  platform: string;
  state: string;
  itemIds: string[];
  submittedAt: number | null;
}
export interface AscReviewItem {
  id: string;
  submissionId: string;
  state: string;
  target: ReviewTarget;
}

const limitError = (detail: string) => new FakeError(409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', detail);

export class AscVariants {
  readonly pages = new Map<string, AscPage>();
  readonly pageVersions = new Map<string, AscPageVersion>();
  readonly experiments = new Map<string, AscExperiment>();
  readonly treatments = new Map<string, AscTreatment>();
  readonly submissions = new Map<string, AscReviewSubmission>();
  readonly items = new Map<string, AscReviewItem>();
  pageLimit = DEFAULT_PAGE_LIMIT;
  /** Submitted items are reviewed (APPROVED) this long after submission; null: only by completeReview. */
  reviewDelayMs: number | null = null;

  constructor(private readonly state: AscState) {
    state.variantEditable = (l) => this.assertEditable(l);
  }

  page(id: string): AscPage {
    const page = this.pages.get(id);
    if (!page) throw notFound('appCustomProductPages', id);
    return page;
  }
  pageVersion(id: string): AscPageVersion {
    const version = this.pageVersions.get(id);
    if (!version) throw notFound('appCustomProductPageVersions', id);
    return version;
  }
  experiment(id: string): AscExperiment {
    const experiment = this.experiments.get(id);
    if (!experiment) throw notFound('appStoreVersionExperiments', id);
    return experiment;
  }
  treatment(id: string): AscTreatment {
    const treatment = this.treatments.get(id);
    if (!treatment) throw notFound('appStoreVersionExperimentTreatments', id);
    return treatment;
  }
  submission(id: string): AscReviewSubmission {
    const submission = this.submissions.get(id);
    if (!submission) throw notFound('reviewSubmissions', id);
    return submission;
  }
  /** A localization of one kind: a page's id under a treatment's path is not found, as on the store. */
  localization(id: string, kind: 'page' | 'treatment'): AscLocalization {
    const l = this.state.localizations.get(id);
    const type = kind === 'page' ? 'appCustomProductPageLocalizations' : 'appStoreVersionExperimentTreatmentLocalizations';
    if (!l || l.kind !== kind) throw notFound(type, id);
    return l;
  }

  pagesOf(appId: string): AscPage[] {
    this.state.app(appId);
    return [...this.pages.values()].filter((p) => p.appId === appId);
  }
  experimentsOf(appId: string): AscExperiment[] {
    this.state.app(appId);
    return [...this.experiments.values()].filter((e) => e.appId === appId);
  }
  running = (e: AscExperiment) => e.startDate !== null && e.endDate === null;

  private assertEditable(l: AscLocalization): void {
    const [what, state] =
      l.kind === 'page'
        ? ['custom product page version', this.pageVersion(l.versionId).state]
        : ['product page optimization test', this.experiment(this.treatment(l.versionId).experimentId).state];
    if (!VARIANT_EDITABLE.includes(state) || (l.kind === 'treatment' && this.running(this.experimentOf(l))))
      throw conflict('STATE_ERROR', `The ${what} is in the state ${state} and its screenshots cannot be changed.`);
  }
  private experimentOf = (l: AscLocalization) => this.experiment(this.treatment(l.versionId).experimentId);

  private newLocalization(kind: 'page' | 'treatment', parentId: string, locale: string, promotionalText?: string | null): AscLocalization {
    const l: AscLocalization = { id: randomUUID(), versionId: parentId, locale, setIds: [], kind };
    if (kind === 'page') Object.assign(l, { promotionalText: promotionalText ?? null, keywords: [] });
    this.state.localizations.set(l.id, l);
    return l;
  }

  // ——— custom product pages ———

  createPage(appId: string, name: string, localizations: { locale: string; promotionalText?: string | null }[]): AscPage {
    const pages = this.pagesOf(appId);
    if (pages.length >= this.pageLimit)
      throw limitError(`The app already has ${pages.length} custom product pages, the most it can have (${this.pageLimit}).`);
    if (pages.some((p) => p.name === name)) throw limitError(`A custom product page named '${name}' already exists for this app.`);
    const page: AscPage = { id: randomUUID(), appId, name, visible: false, versionIds: [] };
    this.pages.set(page.id, page);
    const version = this.addPageVersion(page);
    for (const l of localizations) this.createPageLocalization(version.id, l.locale, l.promotionalText);
    return page;
  }

  private addPageVersion(page: AscPage): AscPageVersion {
    const version: AscPageVersion = {
      id: randomUUID(),
      pageId: page.id,
      version: String(page.versionIds.length + 1),
      state: 'PREPARE_FOR_SUBMISSION',
      localizationIds: [],
    };
    this.pageVersions.set(version.id, version);
    page.versionIds.push(version.id);
    return version;
  }

  /** A new version of a page whose versions are all approved or in review: a copy of the newest one. */
  createPageVersion(pageId: string): AscPageVersion {
    const page = this.page(pageId);
    const open = page.versionIds.map((id) => this.pageVersion(id)).find((v) => VARIANT_EDITABLE.includes(v.state));
    if (open) throw conflict('STATE_ERROR', `The custom product page already has version ${open.version} in ${open.state}; edit that one.`);
    const newest = this.pageVersion(page.versionIds.at(-1)!);
    const version = this.addPageVersion(page);
    for (const id of newest.localizationIds) {
      const from = this.state.localization(id);
      const to = this.createPageLocalization(version.id, from.locale, from.promotionalText);
      to.keywords = [...(from.keywords ?? [])];
      this.copySets(from, to);
    }
    return version;
  }

  createPageLocalization(versionId: string, locale: string, promotionalText?: string | null): AscLocalization {
    const version = this.pageVersion(versionId);
    if (!VARIANT_EDITABLE.includes(version.state))
      throw conflict('STATE_ERROR', `The custom product page version is in the state ${version.state}; it cannot get localizations.`);
    if (version.localizationIds.some((id) => this.state.localization(id).locale === locale))
      throw conflict(
        'ENTITY_ERROR.ATTRIBUTE.INVALID',
        `A localization for '${locale}' already exists for this custom product page version.`,
      );
    const l = this.newLocalization('page', versionId, locale, promotionalText);
    version.localizationIds.push(l.id);
    return l;
  }

  private copySets(from: AscLocalization, to: AscLocalization): void {
    for (const setId of from.setIds) {
      const set = this.state.set(setId);
      const copy = { id: randomUUID(), localizationId: to.id, displayType: set.displayType, screenshotIds: [] as string[] };
      this.state.sets.set(copy.id, copy);
      to.setIds.push(copy.id);
      for (const shotId of set.screenshotIds) {
        const shot = this.state.screenshot(shotId);
        if (shot.committedAt === null) continue;
        const dup = { ...shot, id: randomUUID(), setId: copy.id, bytes: Buffer.from(shot.bytes), parts: shot.parts.map((p) => ({ ...p })) };
        this.state.screenshots.set(dup.id, dup);
        copy.screenshotIds.push(dup.id);
      }
    }
  }

  /** Search keywords are named by their text (`appKeywords` whose id is the keyword). */
  setKeywords(localizationId: string, add: string[], remove: string[]): void {
    const l = this.localization(localizationId, 'page');
    this.assertEditable(l);
    l.keywords = [...new Set([...(l.keywords ?? []).filter((k) => !remove.includes(k)), ...add])];
  }

  // ——— product page optimization tests ———

  createExperiment(appId: string, name: string, platform: string, trafficProportion: number): AscExperiment {
    const app = this.state.app(appId);
    const released = (id: string) => {
      const v = this.state.version(id);
      return v.platform === platform && DISTRIBUTED.includes(v.state);
    };
    if (!app.versionIds.some(released))
      throw conflict(
        'STATE_ERROR.PPO_CREATE_ONLY_ALLOWED_WITH_APP_STORE_DISTRIBUTION',
        'You can only create a product page optimization test for an app that has a version ready for distribution on the App Store.',
      );
    const others = this.experimentsOf(appId);
    const running = others.find(this.running);
    if (running)
      throw conflict('STATE_ERROR', `The product page optimization test '${running.name}' is running; only one test can run at a time.`);
    if (others.some((e) => e.name === name && !['COMPLETED', 'STOPPED'].includes(e.state)))
      throw limitError(`A product page optimization test named '${name}' already exists for this app.`);
    if (!Number.isInteger(trafficProportion) || trafficProportion < 1 || trafficProportion > 100)
      throw limitError(`trafficProportion must be a whole number from 1 to 100; got ${trafficProportion}.`);
    const e: AscExperiment = {
      id: randomUUID(),
      appId,
      name,
      platform,
      trafficProportion,
      state: 'PREPARE_FOR_SUBMISSION',
      startDate: null,
      endDate: null,
      treatmentIds: [],
    };
    this.experiments.set(e.id, e);
    return e;
  }

  updateExperiment(id: string, patch: { name?: string; trafficProportion?: number; started?: boolean }): AscExperiment {
    const e = this.experiment(id);
    if (patch.started === true && !this.running(e)) {
      if (!['APPROVED', 'ACCEPTED'].includes(e.state))
        throw conflict('STATE_ERROR', `The product page optimization test is in the state ${e.state}; only an approved test can start.`);
      const other = this.experimentsOf(e.appId).find((x) => x !== e && this.running(x));
      if (other)
        throw conflict('STATE_ERROR', `The product page optimization test '${other.name}' is running; only one test can run at a time.`);
      e.startDate = new Date().toISOString();
    }
    if (patch.name !== undefined || patch.trafficProportion !== undefined) {
      if (!VARIANT_EDITABLE.includes(e.state))
        throw conflict('STATE_ERROR', `The product page optimization test is in the state ${e.state} and cannot change.`);
      if (patch.name !== undefined) e.name = patch.name;
      if (patch.trafficProportion !== undefined) e.trafficProportion = patch.trafficProportion;
    }
    return e;
  }

  deleteExperiment(id: string): void {
    const e = this.experiment(id);
    if (this.running(e)) throw conflict('STATE_ERROR', 'A running test cannot be deleted; stop it first.');
    for (const t of [...e.treatmentIds]) this.deleteTreatment(t, true);
    this.experiments.delete(id);
  }

  createTreatment(experimentId: string, name: string): AscTreatment {
    const e = this.experiment(experimentId);
    if (!VARIANT_EDITABLE.includes(e.state))
      throw conflict('STATE_ERROR', `The product page optimization test is in the state ${e.state}; it cannot get treatments.`);
    if (e.treatmentIds.length >= MAX_TREATMENTS)
      throw conflict(
        'ENTITY_ERROR.RELATIONSHIP.INVALID',
        `A product page optimization test can have at most ${MAX_TREATMENTS} treatments; this one has ${e.treatmentIds.length}.`,
      );
    if (e.treatmentIds.some((id) => this.treatment(id).name === name))
      throw limitError(`A treatment named '${name}' already exists in this test.`);
    const t: AscTreatment = { id: randomUUID(), experimentId, name, localizationIds: [] };
    this.treatments.set(t.id, t);
    e.treatmentIds.push(t.id);
    return t;
  }

  deleteTreatment(id: string, withTest = false): void {
    const t = this.treatment(id);
    const e = this.experiment(t.experimentId);
    if (!withTest && !VARIANT_EDITABLE.includes(e.state)) throw conflict('STATE_ERROR', `The test is in the state ${e.state}.`);
    for (const l of t.localizationIds) this.state.localizations.delete(l);
    e.treatmentIds = e.treatmentIds.filter((x) => x !== id);
    this.treatments.delete(id);
  }

  createTreatmentLocalization(treatmentId: string, locale: string): AscLocalization {
    const t = this.treatment(treatmentId);
    const e = this.experiment(t.experimentId);
    if (!VARIANT_EDITABLE.includes(e.state))
      throw conflict('STATE_ERROR', `The product page optimization test is in the state ${e.state}; it cannot get localizations.`);
    if (t.localizationIds.some((id) => this.state.localization(id).locale === locale))
      throw conflict('ENTITY_ERROR.ATTRIBUTE.INVALID', `A localization for '${locale}' already exists for this treatment.`);
    const l = this.newLocalization('treatment', treatmentId, locale);
    t.localizationIds.push(l.id);
    return l;
  }

  // ——— review submissions ———

  private targetState(target: ReviewTarget): { get(): string; set(state: string): void } {
    const thing = target.type === 'appCustomProductPageVersions' ? this.pageVersion(target.id) : this.experiment(target.id);
    return { get: () => thing.state, set: (s) => void (thing.state = s) };
  }

  createSubmission(appId: string, platform: string): AscReviewSubmission {
    this.state.app(appId);
    const open = [...this.submissions.values()].find((s) => s.appId === appId && s.platform === platform && s.state === 'READY_FOR_REVIEW');
    if (open) throw conflict('STATE_ERROR', `The app already has a review submission in preparation for ${platform} (${open.id}).`);
    const s: AscReviewSubmission = { id: randomUUID(), appId, platform, state: 'READY_FOR_REVIEW', itemIds: [], submittedAt: null };
    this.submissions.set(s.id, s);
    return s;
  }

  addItem(submissionId: string, target: ReviewTarget): AscReviewItem {
    const s = this.submission(submissionId);
    if (s.state !== 'READY_FOR_REVIEW') throw conflict('STATE_ERROR', `The review submission is ${s.state}; it takes no more items.`);
    const thing = this.targetState(target);
    const inOne = [...this.items.values()].find(
      (i) => i.target.type === target.type && i.target.id === target.id && this.submission(i.submissionId).state !== 'COMPLETE',
    );
    if (inOne) throw conflict('ENTITY_ERROR.RELATIONSHIP.INVALID', `The item is already in review submission ${inOne.submissionId}.`);
    if (!['PREPARE_FOR_SUBMISSION', 'REJECTED'].includes(thing.get()))
      throw conflict('STATE_ERROR', `The item is in the state ${thing.get()} and cannot be submitted for review.`);
    const item: AscReviewItem = { id: randomUUID(), submissionId, state: 'READY_FOR_REVIEW', target };
    this.items.set(item.id, item);
    s.itemIds.push(item.id);
    thing.set('READY_FOR_REVIEW');
    return item;
  }

  submit(submissionId: string): AscReviewSubmission {
    const s = this.submission(submissionId);
    if (s.state !== 'READY_FOR_REVIEW') throw conflict('STATE_ERROR', `The review submission is ${s.state} and cannot be submitted again.`);
    if (!s.itemIds.length) throw conflict('STATE_ERROR', 'The review submission has no items to submit.');
    s.state = 'WAITING_FOR_REVIEW';
    s.submittedAt = Date.now();
    for (const id of s.itemIds) this.targetState(this.items.get(id)!.target).set('WAITING_FOR_REVIEW');
    return s;
  }

  /** App Review's verdict on every item of the app's submitted submissions. */
  completeReview(appId: string, outcome: 'APPROVED' | 'REJECTED' = 'APPROVED'): void {
    for (const s of this.submissions.values()) {
      if (s.appId !== appId || !['WAITING_FOR_REVIEW', 'IN_REVIEW'].includes(s.state)) continue;
      s.state = outcome === 'APPROVED' ? 'COMPLETE' : 'UNRESOLVED_ISSUES';
      for (const id of s.itemIds) {
        const item = this.items.get(id)!;
        item.state = outcome;
        this.targetState(item.target).set(outcome);
      }
    }
  }

  /** With reviewDelayMs, submissions old enough are reviewed when anything is next read. */
  settle(): void {
    if (this.reviewDelayMs === null) return;
    const due = [...this.submissions.values()].filter(
      (s) => s.state === 'WAITING_FOR_REVIEW' && s.submittedAt !== null && Date.now() - s.submittedAt >= this.reviewDelayMs!,
    );
    for (const appId of new Set(due.map((s) => s.appId))) this.completeReview(appId);
  }
}
