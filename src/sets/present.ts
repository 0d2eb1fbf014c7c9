/**
 * A succeeded job as clients see it: its plan with each slide's `image` and the set's `archive`,
 * every URL freshly signed. The stored plan never holds URLs: they expire, and the host they name
 * is the one the client asked.
 */
import type { PublicJob } from './jobs.ts';
import type { Slide } from '../core/set.ts';
import { ARCHIVE_NAME, featureGraphicFileName, slideFileName, STORE_PREVIEW_NAME, type JobFile } from './files.ts';
import type { UrlSigner } from './signed-urls.ts';

export interface PictureLinks {
  signer: UrlSigner;
  /** Scheme and host the client reaches the service at, e.g. https://shotgen.example. */
  origin: string;
  /** The path the server routes on (BASE_PATH included): what the signature covers. */
  basePath: string;
  now: Date;
}

export function withPictures(job: PublicJob, files: JobFile[], links: PictureLinks): PublicJob {
  if (job.status !== 'succeeded' || !job.result || files.length === 0) return job;
  const byName = new Map(files.map((f) => [f.name, f]));
  const url = (name: string) => {
    const path = `${links.basePath}/public/v1/jobs/${job.id}/${name}`;
    return `${links.origin}${links.signer.sign(path, links.now)}`;
  };
  const withImages = (slides: Slide[], locale: string | null): Slide[] =>
    slides.map((s) => {
      const f = byName.get(slideFileName(s.index, locale)) ?? byName.get(slideFileName(s.index, locale, 'jpg'));
      return f
        ? {
            ...s,
            image: {
              url: url(f.name),
              width: f.width ?? 0,
              height: f.height ?? 0,
              format: f.contentType === 'image/jpeg' ? ('jpeg' as const) : ('png' as const),
              bytes: f.bytes,
              sha256: f.sha256,
            },
          }
        : s;
    });
  const archive = byName.get(ARCHIVE_NAME);
  const picture = (name: string) => {
    const f = byName.get(name);
    return f
      ? { url: url(f.name), width: f.width ?? 0, height: f.height ?? 0, format: 'png' as const, bytes: f.bytes, sha256: f.sha256 }
      : null;
  };
  const featureGraphic = picture(featureGraphicFileName(null));
  const storePreview = picture(STORE_PREVIEW_NAME);
  const result = job.result;
  return {
    ...job,
    result: {
      ...result,
      slides: withImages(result.slides, null),
      ...(archive ? { archive: { url: url(archive.name), bytes: archive.bytes, sha256: archive.sha256 } } : {}),
      ...(featureGraphic ? { featureGraphic } : {}),
      ...(storePreview ? { storePreview } : {}),
      ...(result.locales
        ? {
            locales: result.locales.map((l, i) => {
              // The first locale's pictures carry the set's own names (slides/1.png, feature-graphic.png).
              const own = i === 0 ? null : l.locale;
              const graphic = picture(featureGraphicFileName(own));
              return { ...l, slides: withImages(l.slides, own), ...(graphic ? { featureGraphic: graphic } : {}) };
            }),
          }
        : {}),
    },
  };
}

/** The signed URL of an Android set's ZIP for one Play variant (./variant-archive.ts): the archive's, with `variant`. */
export function variantArchiveUrl(links: PictureLinks, jobId: string, variant: string): string {
  const path = `${links.basePath}/public/v1/jobs/${jobId}/${ARCHIVE_NAME}`;
  return `${links.origin}${links.signer.sign(path, links.now)}&variant=${encodeURIComponent(variant)}`;
}
