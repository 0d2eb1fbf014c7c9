/**
 * `npx tsx bench/fake-stores.ts`: the floor under "time to publish 10 slides × 3 locales against
 * the fakes" (issue 22). It runs the stores' minimal protocol with plain fetch, client and fakes
 * in one process: App Store Connect reserve → one part per 5 MiB → commit → one state read per
 * image and a reorder per set; Google Play one edit → deleteall per slot → an upload per image →
 * commit. Prints wall time and calls per published image per store. A publication's own figure
 * (its database writes, polling and verify step) comes on top of this.
 *
 * Settings: BENCH_SLIDES (default 10), BENCH_LOCALES (default 3), BENCH_IMAGE_KB (default 1500,
 * about a 1290×2796 screenshot), BENCH_ROUNDS (default 5; the median is reported).
 */
import { createHash, randomBytes } from 'node:crypto';
import { startFakeAppStoreConnect } from '../src/fake-stores/app-store-connect.ts';
import { startFakeGooglePlay } from '../src/fake-stores/google-play.ts';
import { generateAppStoreKey, generateServiceAccount } from '../src/fake-stores/keys.ts';
import { ascClient, playToken, uploadScreenshot } from '../test/fake-stores/helpers.ts';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SLIDES = num('BENCH_SLIDES', 10);
const LOCALES = ['en-US', 'de-DE', 'fr-FR', 'ja', 'es-ES', 'it', 'pt-BR', 'ko'].slice(0, num('BENCH_LOCALES', 3));
const IMAGE_BYTES = num('BENCH_IMAGE_KB', 1500) * 1024;
const ROUNDS = num('BENCH_ROUNDS', 5);

/** A PNG signature and IHDR (1290×2796) followed by incompressible bytes: the size of a real one. */
function screenshotLike(): Buffer {
  const head = Buffer.alloc(24);
  head.writeUInt32BE(0x89504e47, 0);
  head.writeUInt32BE(0x0d0a1a0a, 4);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(1290, 16);
  head.writeUInt32BE(2796, 20);
  return Buffer.concat([head, randomBytes(IMAGE_BYTES - head.length)]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function appStoreRound(images: Buffer[]): Promise<{ ms: number; calls: number }> {
  const fake = await startFakeAppStoreConnect();
  const key = generateAppStoreKey();
  fake.addKey(key.issuerId, key.keyId, key.publicKeyPem);
  fake.addApp({ appId: '1', locales: LOCALES });
  const call = ascClient(fake.url, key);
  try {
    const started = performance.now();
    const version = (await call('GET', '/v1/apps/1/appStoreVersions?filter[platform]=IOS&filter[appStoreState]=PREPARE_FOR_SUBMISSION'))
      .body.data[0].id;
    const localizations = (await call('GET', `/v1/appStoreVersions/${version}/appStoreVersionLocalizations`)).body.data as { id: string }[];
    await Promise.all(
      localizations.map(async (l) => {
        const set = await call('POST', '/v1/appScreenshotSets', {
          data: {
            type: 'appScreenshotSets',
            attributes: { screenshotDisplayType: 'APP_IPHONE_67' },
            relationships: { appStoreVersionLocalization: { data: { type: 'appStoreVersionLocalizations', id: l.id } } },
          },
        });
        const ids = [];
        for (const [i, bytes] of images.entries()) {
          const { id } = await uploadScreenshot(call, set.body.data.id, `${i}.png`, bytes);
          await call('GET', `/v1/appScreenshots/${id}`);
          ids.push(id);
        }
        await call('PATCH', `/v1/appScreenshotSets/${set.body.data.id}/relationships/appScreenshots`, {
          data: ids.map((id) => ({ type: 'appScreenshots', id })),
        });
      }),
    );
    return { ms: performance.now() - started, calls: fake.calls.length };
  } finally {
    await fake.close();
  }
}

/** Play holds at most eight phone screenshots per language: a longer set is cut there. */
const PLAY_MAX_SCREENSHOTS = 8;

async function playRound(all: Buffer[]): Promise<{ ms: number; calls: number }> {
  const images = all.slice(0, PLAY_MAX_SCREENSHOTS);
  const fake = await startFakeGooglePlay();
  const { key, publicKeyPem } = generateServiceAccount(fake.tokenUri);
  fake.addServiceAccount(key.client_email, publicKeyPem);
  fake.addApp('com.example.bench');
  try {
    const started = performance.now();
    const token = (await playToken(key)).body.access_token as string;
    const auth = { authorization: `Bearer ${token}` };
    const edits = `${fake.url}/androidpublisher/v3/applications/com.example.bench/edits`;
    const edit = ((await (await fetch(edits, { method: 'POST', headers: auth })).json()) as { id: string }).id;
    for (const locale of LOCALES) {
      await fetch(`${edits}/${edit}/listings/${locale}/phoneScreenshots`, { method: 'DELETE', headers: auth });
      for (const bytes of images) {
        const res = await fetch(
          `${fake.url}/upload/androidpublisher/v3/applications/com.example.bench/edits/${edit}/listings/${locale}/phoneScreenshots?uploadType=media`,
          { method: 'POST', headers: { ...auth, 'content-type': 'image/png' }, body: new Uint8Array(bytes) },
        );
        if (!res.ok) throw new Error(`upload: ${res.status}`);
        await res.arrayBuffer();
      }
    }
    const committed = await fetch(`${edits}/${edit}:commit?changesInReviewBehavior=ERROR_IF_IN_REVIEW`, { method: 'POST', headers: auth });
    if (!committed.ok) throw new Error(`commit: ${committed.status}`);
    return { ms: performance.now() - started, calls: fake.calls.length };
  } finally {
    await fake.close();
  }
}

async function main(): Promise<void> {
  const images = Array.from({ length: SLIDES }, screenshotLike);
  const published = SLIDES * LOCALES.length;
  process.stdout.write(
    `${SLIDES} slides × ${LOCALES.length} locales = ${published} images of ${IMAGE_BYTES / 1024} KB (md5 of the first ${createHash('md5').update(images[0]).digest('hex').slice(0, 8)}…), median of ${ROUNDS} rounds\n\n`,
  );
  process.stdout.write('| store | images | time to publish | per image | calls | calls per image |\n|---|---|---|---|---|---|\n');
  for (const [store, round] of [
    ['App Store Connect', appStoreRound],
    ['Google Play', playRound],
  ] as const) {
    const runs = [];
    for (let r = 0; r < ROUNDS; r++) runs.push(await round(images));
    const calls = runs[0].calls;
    const count = store === 'Google Play' ? Math.min(SLIDES, PLAY_MAX_SCREENSHOTS) * LOCALES.length : published;
    const ms = median(runs.map((x) => x.ms));
    process.stdout.write(
      `| ${store} | ${count} | ${ms.toFixed(0)} ms | ${(ms / count).toFixed(1)} ms | ${calls} | ${(calls / count).toFixed(2)} |\n`,
    );
  }
}

await main();
