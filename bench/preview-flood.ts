/**
 * One account floods POST /public/v1/previews while another edits: `npx tsx bench/preview-flood.ts`,
 * and the last part of `npm run bench`. A service on 127.0.0.1 (role api, in this process, as
 * bench/editing.ts starts it) previews a slide framing an uploaded iPhone screen. The quiet account
 * asks BENCH_PREVIEWS previews one at a time, alone and then while the flooding account sends
 * BENCH_FLOOD at once, again each time all of them are answered, each framing one of its 40 screens
 * (more than the service keeps in memory, so a preview reads its screen). Printed: the quiet account's p50 /
 * p99 both ways, the flood's answers by status, and this process's RSS before, at its peak and after.
 *
 * PREVIEWS_PER_MINUTE and RATE_LIMIT_PER_SECOND are set out of the way: the flood meets what holds
 * previews in the service (the queue, PREVIEWS_AT_ONCE), not the limits in front of it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApiKey } from '../src/accounts/api-keys.ts';
import { loadConfig } from '../src/config.ts';
import { FileObjectStore } from '../src/objects/filesystem.ts';
import { uploadScreen } from '../src/screens/screens.ts';
import { startService } from '../src/service.ts';
import { percentile } from './load.ts';
import { fakeScreen } from './rendering.ts';
import { benchAccount, openBenchDatabase } from './setup.ts';

const PREVIEWS = Number(process.env.BENCH_PREVIEWS ?? 40);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 100);
const FLOOD_SCREENS = 40;
const progress = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

export interface FloodResult {
  text: string;
  aloneP99Ms: number;
  floodedP99Ms: number;
}

export async function benchPreviewFlood(): Promise<FloodResult> {
  const bench = await openBenchDatabase();
  const db = bench.database.pool;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-flood-bench-'));
  const objects = new FileObjectStore(path.join(dir, 'objects'));
  try {
    const [quiet, flooder] = [await benchAccount(db, 'previews quiet', 0), await benchAccount(db, 'previews flood', 0)];
    const screenOf = async (a: typeof quiet, variant: number) =>
      (await uploadScreen(db, objects, a.accountId, a.appId, await fakeScreen(variant), 'iphone')).screenId;
    progress(`previews: uploading ${FLOOD_SCREENS + 1} screens`);
    const quietScreen = await screenOf(quiet, 0);
    const floodScreens: string[] = [];
    for (let i = 0; i < FLOOD_SCREENS; i++) floodScreens.push(await screenOf(flooder, i + 1));
    const service = await startService(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATA_DIR: dir,
        PREVIEWS_PER_MINUTE: '1000000',
        RATE_LIMIT_PER_SECOND: '1000000000',
      }),
      { role: 'api', database: { pool: db, url: bench.database.url, embedded: null, close: async () => undefined } },
    );
    try {
      const keys = {
        quiet: (await createApiKey(db, quiet.accountId, 'bench')).key,
        flood: (await createApiKey(db, flooder.accountId, 'bench')).key,
      };
      const ask = async (who: 'quiet' | 'flood', headline: string, n = 0): Promise<number> => {
        const a = who === 'quiet' ? quiet : flooder;
        const screenId = who === 'quiet' ? quietScreen : floodScreens[n % FLOOD_SCREENS];
        const res = await fetch(`${service.address}/api/v1/public/v1/previews`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keys[who]}`, 'content-type': 'application/json' },
          body: JSON.stringify({ appId: a.appId, device: 'iphone-69', slide: { headline, screenId } }),
        });
        await res.arrayBuffer();
        return res.status;
      };
      const edits = async (label: string): Promise<number[]> => {
        progress(`previews: ${PREVIEWS} from the quiet account, ${label}`);
        const ms: number[] = [];
        for (let i = 0; i < PREVIEWS; i++) {
          const t = performance.now();
          const status = await ask('quiet', `Smart Reminders ${'z'.repeat(i % 12)}`);
          if (status !== 200) throw new Error(`the quiet account's preview answered ${status}`);
          ms.push(performance.now() - t);
        }
        return ms.sort((a, b) => a - b);
      };

      if ((await ask('quiet', 'Smart Reminders')) !== 200) throw new Error('the first preview failed'); // the thread's cold start
      if ((await ask('flood', 'Smart Reminders')) !== 200) throw new Error('the flooding account cannot preview');
      const alone = await edits('alone');
      const rssBefore = process.memoryUsage().rss;

      let flooding = true;
      const statuses: Record<number, number> = {};
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
      const flood = (async () => {
        for (let round = 0; flooding; round++) {
          const answers = await Promise.all(Array.from({ length: FLOOD }, (_, i) => ask('flood', `Flood ${round} ${i}`, i).catch(() => 0)));
          for (const s of answers) statuses[s] = (statuses[s] ?? 0) + 1;
        }
      })();
      const flooded = await edits(`while the other sends ${FLOOD} at once, again and again`);
      flooding = false;
      await flood;
      clearInterval(sampler);
      const rssAfter = process.memoryUsage().rss;

      const rows = [
        [
          `quiet account's preview p50 / p99, alone (${PREVIEWS})`,
          `${percentile(alone, 50).toFixed(0)} / ${percentile(alone, 99).toFixed(0)} ms`,
        ],
        [
          `the same while another account floods (${FLOOD} at once)`,
          `${percentile(flooded, 50).toFixed(0)} / ${percentile(flooded, 99).toFixed(0)} ms`,
        ],
        [
          'the flooding account’s answers',
          Object.entries(statuses)
            .map(([s, n]) => `${n} × ${s}`)
            .join(', '),
        ],
        ['RSS before / peak during / after the flood', `${mb(rssBefore)} / ${mb(peak)} / ${mb(rssAfter)}`],
        ['load average (1 min) at the end', os.loadavg()[0].toFixed(2)],
      ];
      return {
        text: [
          '',
          'previews while another account floods (bench/preview-flood.ts):',
          ...rows.map(([k, v]) => `${k.padEnd(60)} ${v}`),
          '',
        ].join('\n'),
        aloneP99Ms: percentile(alone, 99),
        floodedP99Ms: percentile(flooded, 99),
      };
    } finally {
      await service.close();
    }
  } finally {
    await bench.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write((await benchPreviewFlood()).text);
