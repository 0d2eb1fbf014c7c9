/** A real S3-compatible server for tests: s3rver, in this process, on 127.0.0.1, offline. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/objects/s3.ts';

export interface TestS3 {
  settings: S3Settings;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts s3rver with one bucket; null (with the reason) where it cannot start. */
export async function startS3(bucket = 'shotgen-test'): Promise<TestS3 | { error: string }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-s3-'));
  try {
    const server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    const { port } = await server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    const settings: S3Settings = {
      bucket,
      endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    };
    return {
      settings,
      env: {
        S3_BUCKET: bucket,
        S3_ENDPOINT: endpoint,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      },
      async close() {
        await server.close();
        fs.rmSync(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(directory, { recursive: true, force: true });
    return { error: (error as Error).message };
  }
}
