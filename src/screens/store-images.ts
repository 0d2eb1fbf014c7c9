/**
 * The listing's own screenshots, fetched by the worker at full size. Their URLs come from the
 * store's answer, never from a user, and still only the stores' image hosts are asked (CONTRACT):
 * an allow-list of origins, no redirect to another host, bounded in bytes and time.
 */
export const MAX_STORE_IMAGE_BYTES = 20 * 1024 * 1024;

export class StoreImageUnavailable extends Error {}

/**
 * The same picture at the largest size the image service renders: mzstatic URLs end in a size
 * template (/392x696bb.jpg; a bounding box it fills up to the original), googleusercontent ones in
 * a suffix (=w526-h296-rw; =s0 is the original).
 */
export function fullSizeUrl(url: string): string {
  const mz = url.replace(/\/(\d+)x(\d+)[a-z]{0,4}(?:-\d+)?\.(jpe?g|png|webp)$/i, '/4000x4000bb.png');
  if (mz !== url) return mz;
  if (/\.googleusercontent\.com\//i.test(url)) return `${url.replace(/=[^/=?#]*$/, '')}=s0`;
  return url;
}

/** Whether the URL's origin is one of the allowed ones (`https://*.mzstatic.com` matches subdomains). */
export function allowedOrigin(url: string, origins: string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  return origins.some((o) => {
    const m = /^(https?):\/\/(\*\.)?(.+)$/.exec(o)!;
    if (u.protocol !== `${m[1]}:`) return false;
    const host = u.port ? `${u.hostname}:${u.port}` : u.hostname;
    return m[2] ? host.endsWith(`.${m[3]}`) : host === m[3];
  });
}

export interface StoreImageOptions {
  origins: string[];
  timeoutMs?: number;
  maxBytes?: number;
  signal?: AbortSignal;
}

export async function fetchStoreImage(listingUrl: string, opts: StoreImageOptions): Promise<Buffer> {
  let url = fullSizeUrl(listingUrl);
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 15_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const maxBytes = opts.maxBytes ?? MAX_STORE_IMAGE_BYTES;
  // A few same-host redirects (image services do that between sizes); never to another host.
  for (let hop = 0; hop < 3; hop++) {
    if (!allowedOrigin(url, opts.origins)) throw new StoreImageUnavailable(`${new URL(url).host} is not a store image host`);
    let res: Response;
    try {
      res = await fetch(url, { redirect: 'manual', signal, headers: { accept: 'image/png,image/jpeg,image/webp,*/*;q=0.5' } });
    } catch (error) {
      throw new StoreImageUnavailable(`the store image host did not answer: ${(error as Error).message}`);
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const next = res.headers.get('location');
      if (!next) throw new StoreImageUnavailable(`a redirect without a location (${res.status})`);
      const target = new URL(next, url);
      if (target.host !== new URL(url).host)
        throw new StoreImageUnavailable(`a redirect to another host (${target.host}) was not followed`);
      url = target.href;
      continue;
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new StoreImageUnavailable(`the store image host answered ${res.status}`);
    }
    // A consent page or an error page sent with 200 is not a screenshot.
    const type = res.headers.get('content-type') ?? '';
    if (type && !/^image\//i.test(type)) {
      await res.body.cancel();
      throw new StoreImageUnavailable(`the store image host sent ${type.split(';')[0]}, not an image`);
    }
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > maxBytes) {
      await res.body.cancel();
      throw new StoreImageUnavailable(`the store image is ${declared} bytes, more than ${maxBytes}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new StoreImageUnavailable(`the store image is more than ${maxBytes} bytes`);
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      if (error instanceof StoreImageUnavailable) throw error;
      throw new StoreImageUnavailable(`the store image could not be read: ${(error as Error).message}`);
    }
    return Buffer.concat(chunks);
  }
  throw new StoreImageUnavailable('too many redirects');
}
