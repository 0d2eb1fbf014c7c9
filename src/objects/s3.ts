/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, R2, ...): any number of API and worker
 * processes on any machines share the pictures.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { checkKey, ObjectStoreUnavailable, type ObjectStore, type StoredObject } from './store.ts';

export interface S3Settings {
  bucket: string;
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean;
}

type Sdk = typeof import('@aws-sdk/client-s3');

/**
 * The AWS SDK, loaded when a process first makes an S3 store: it is about 0.35 s of CPU to import,
 * and most processes keep their objects on disk (the test suite starts well over a hundred).
 */
let loading: Promise<Sdk> | null = null;
const sdk = (): Promise<Sdk> => (loading ??= import('@aws-sdk/client-s3'));

const isNotFound = (aws: Sdk, e: unknown) =>
  e instanceof aws.S3ServiceException && (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404);

export class S3ObjectStore implements ObjectStore {
  private readonly ready: Promise<{ aws: Sdk; client: S3Client }>;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.ready = sdk().then((aws) => ({ aws, client: S3ObjectStore.client(aws, settings) }));
    // A failed load is reported by the first call that awaits it, not as an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  private static client(aws: Sdk, settings: S3Settings): S3Client {
    return new aws.S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
      // A request that cannot reach the bucket fails in seconds, not minutes: the caller answers 503.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
      maxAttempts: 3,
    });
  }

  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new ObjectStoreUnavailable(`${what}: ${(error as Error).message}`, { cause: error });
    }
  }

  async put(key: string, parts: Buffer | readonly Buffer[], contentType: string): Promise<void> {
    // A PUT is atomic in S3: readers see the old object or the new one. The SDK signs one body.
    const body = Buffer.isBuffer(parts) ? parts : Buffer.concat(parts);
    const { aws, client } = await this.ready;
    await this.call(`could not write ${key}`, () =>
      client.send(
        new aws.PutObjectCommand({
          Bucket: this.bucket,
          Key: checkKey(key),
          Body: body,
          ContentLength: body.length,
          ContentType: contentType,
        }),
      ),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    const { aws, client } = await this.ready;
    try {
      const out = await client.send(new aws.GetObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return { body: out.Body as Readable, bytes: out.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(aws, error)) return null;
      throw new ObjectStoreUnavailable(`could not read ${key}: ${(error as Error).message}`, { cause: error });
    }
  }

  async delete(key: string): Promise<void> {
    const { aws, client } = await this.ready;
    await this.call(`could not delete ${key}`, () => client.send(new aws.DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) })));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const Prefix = `${checkKey(prefix.replace(/\/+$/, ''))}/`;
    const { aws, client } = await this.ready;
    let token: string | undefined;
    do {
      const page = await this.call(`could not list ${Prefix}`, () =>
        client.send(new aws.ListObjectsV2Command({ Bucket: this.bucket, Prefix, ContinuationToken: token })),
      );
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length)
        await this.call(`could not delete ${Prefix}`, () =>
          client.send(new aws.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } })),
        );
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    (await this.ready).client.destroy();
  }
}
