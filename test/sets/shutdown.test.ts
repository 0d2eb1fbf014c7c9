/** A client that stops reading a download cannot hold a shutdown past SHUTDOWN_TIMEOUT_MS. */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { claimJobs, completeJob } from '../../src/sets/job-queue.ts';
import { FileObjectStore } from '../../src/objects/filesystem.ts';
import { saveJobFiles } from '../../src/sets/files.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { startService } from '../../src/service.ts';
import { createTestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { enqueueJobs } from '../support/jobs.ts';

describe('shutdown with a stalled download', () => {
  it('cuts the connection after SHUTDOWN_TIMEOUT_MS instead of waiting for the client', async () => {
    const t = await createTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-stall-'));
    try {
      const { account, key } = await accountWithKey(t.pool);
      const [jobId] = await enqueueJobs(t.pool, account.id, await insertApp(t.pool, account.id), 1);
      await claimJobs(t.pool, 'w', 1, 60_000);
      // Far more than the socket buffers hold: the server's write stalls while the client does not read.
      const big = Buffer.alloc(32 * 1024 * 1024, 1);
      const file = {
        name: 'archive.zip',
        objectKey: `jobs/${jobId}/a1/archive.zip`,
        contentType: 'application/zip',
        bytes: big.length,
        sha256: 'd'.repeat(64),
        width: null,
        height: null,
      };
      await new FileObjectStore(path.join(dataDir, 'objects')).put(file.objectKey, big, file.contentType);
      const result = planScreenshotSet({ listings: [sampleListing()], extraContext: null, request: { device: 'iphone-69', count: 1 } });
      await completeJob(t.pool, 'w', jobId, { result, save: (tx) => saveJobFiles(tx, jobId, [file]) });

      const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_MS: '1000' });
      const service = await startService(config, {
        role: 'api',
        database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
      });
      const url = new URL(`${service.address}/api/v1/public/v1/jobs/${jobId}/archive.zip`);
      const stalled = await new Promise<http.IncomingMessage>((resolve) => {
        http.get(url, { headers: { authorization: `Bearer ${key}` } }, (res) => {
          res.pause(); // never read
          resolve(res);
        });
      });
      expect(stalled.statusCode).toBe(200);
      const started = Date.now();
      await service.close();
      expect(Date.now() - started).toBeLessThan(4_000);
      stalled.destroy();
    } finally {
      await t.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
