/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, R2, ...): any number of API and worker
 * processes on any machines share the pictures.
 */
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
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

const isNotFound = (e: unknown) => e instanceof S3ServiceException && (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404);

export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
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
    await this.call(`could not write ${key}`, () =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: checkKey(key), Body: body, ContentLength: body.length, ContentType: contentType }),
      ),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return { body: out.Body as Readable, bytes: out.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw new ObjectStoreUnavailable(`could not read ${key}: ${(error as Error).message}`, { cause: error });
    }
  }

  async delete(key: string): Promise<void> {
    await this.call(`could not delete ${key}`, () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) })),
    );
  }

  async deletePrefix(prefix: string): Promise<void> {
    const Prefix = `${checkKey(prefix.replace(/\/+$/, ''))}/`;
    let token: string | undefined;
    do {
      const page = await this.call(`could not list ${Prefix}`, () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix, ContinuationToken: token })),
      );
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length)
        await this.call(`could not delete ${Prefix}`, () =>
          this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } })),
        );
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
