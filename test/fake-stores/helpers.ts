/**
 * Plain-fetch clients for the fake stores, signing their tokens the way a real client does (jose,
 * ES256 for App Store Connect, RS256 JWT-bearer for Google), and small distinct PNGs to upload.
 */
import { createHash, createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import sharp from 'sharp';
import type { AppStoreTestKey, ServiceAccountKey } from '../../src/fake-stores/keys.ts';

export const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A PNG that differs from every other `n`, so each upload has its own checksum. */
export const png = (n: number, width = 64, height = 128): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: (n * 53) % 256, g: (n * 97) % 256, b: (n * 151) % 256 } } })
    .png()
    .toBuffer();

export interface TokenOptions {
  audience?: string;
  issuer?: string;
  keyId?: string;
  lifetimeS?: number;
}

export function ascToken(key: AppStoreTestKey, opts: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: opts.keyId ?? key.keyId, typ: 'JWT' })
    .setIssuer(opts.issuer ?? key.issuerId)
    .setAudience(opts.audience ?? 'appstoreconnect-v1')
    .setIssuedAt(now)
    .setExpirationTime(now + (opts.lifetimeS ?? 15 * 60))
    .sign(createPrivateKey(key.privateKeyPem));
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the stores' documents, read field by field in tests
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** An App Store Connect client: `call('GET', '/v1/apps/1')` with a fresh valid token unless `token` is given. */
export function ascClient(base: string, key: AppStoreTestKey) {
  return async (method: string, path: string, body?: unknown, token?: string): Promise<Answer> => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token ?? (await ascToken(key))}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return answer(res);
  };
}

export type AscCall = ReturnType<typeof ascClient>;

/** Reserve, upload every part as the operations say, commit: what deliver does for one file. */
export async function uploadScreenshot(call: AscCall, setId: string, fileName: string, bytes: Buffer, checksum = md5(bytes)) {
  const reserved = await call('POST', '/v1/appScreenshots', {
    data: {
      type: 'appScreenshots',
      attributes: { fileName, fileSize: bytes.length },
      relationships: { appScreenshotSet: { data: { type: 'appScreenshotSets', id: setId } } },
    },
  });
  if (reserved.status !== 201) throw new Error(`reserve: ${reserved.status} ${JSON.stringify(reserved.body)}`);
  const id: string = reserved.body.data.id;
  for (const op of reserved.body.data.attributes.uploadOperations as {
    method: string;
    url: string;
    offset: number;
    length: number;
    requestHeaders: { name: string; value: string }[];
  }[]) {
    const res = await fetch(op.url, {
      method: op.method,
      headers: Object.fromEntries(op.requestHeaders.map((h) => [h.name, h.value])),
      body: new Uint8Array(bytes.subarray(op.offset, op.offset + op.length)),
    });
    if (!res.ok) throw new Error(`upload part: ${res.status}`);
  }
  const committed = await call('PATCH', `/v1/appScreenshots/${id}`, {
    data: { type: 'appScreenshots', id, attributes: { uploaded: true, sourceFileChecksum: checksum } },
  });
  return { id, reserved, committed };
}

/** The JWT-bearer exchange at the key file's token_uri, as google-auth-library does it. */
export async function playToken(key: ServiceAccountKey, opts: { audience?: string; lifetimeS?: number; scope?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ scope: opts.scope ?? 'https://www.googleapis.com/auth/androidpublisher' })
    .setProtectedHeader({ alg: 'RS256', kid: key.private_key_id, typ: 'JWT' })
    .setIssuer(key.client_email)
    .setAudience(opts.audience ?? key.token_uri)
    .setIssuedAt(now)
    .setExpirationTime(now + (opts.lifetimeS ?? 3600))
    .sign(createPrivateKey(key.private_key));
  const res = await fetch(key.token_uri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
  });
  return answer(res);
}
