/**
 * `shotgen fake-stores`: both fake stores on fixed ports with a throwaway App Store Connect key and
 * Google service account written to disk, so publishing can be tried locally without an Apple or
 * Google account. Runs until SIGINT or SIGTERM; prints each request to stderr as it is answered.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startFakeAppStoreConnect } from './app-store-connect.ts';
import { startFakeGooglePlay } from './google-play.ts';
import { generateAppStoreKey, generateServiceAccount } from './keys.ts';
import type { FakeCall } from './types.ts';

export interface FakeStoresOptions {
  host: string;
  appStorePort: number;
  playPort: number;
  /** Where the .p8 key and the service-account JSON are written. */
  dir: string;
  appStoreApp?: string;
  playPackage?: string;
  locales: string[];
  versionState?: string;
  processingDelayMs?: number;
  /** Stops the fakes when it resolves; the command passes "a signal arrived". */
  until: Promise<unknown>;
}

export interface FakeStoresStarted {
  appStoreConnectUrl: string;
  googlePlayApiUrl: string;
  tokenUri: string;
  issuerId: string;
  keyId: string;
  privateKeyPath: string;
  clientEmail: string;
  serviceAccountPath: string;
  appStoreApp: string | null;
  playPackage: string | null;
  locales: string[];
}

/** A secret-bearing file only its owner can read, like the real downloads should be kept. */
async function writePrivate(file: string, text: string): Promise<void> {
  await writeFile(file, text, { mode: 0o600 });
  await chmod(file, 0o600);
}

export function describeStarted(s: FakeStoresStarted): string {
  const seeded = [
    s.appStoreApp
      ? `App Store app ${s.appStoreApp} (${s.locales.join(', ')}; iOS and macOS, each released 1.0 and editable 1.1; review passes 5 s after a submit)`
      : null,
    s.playPackage ? `Play package ${s.playPackage} (listings ${s.locales.join(', ')})` : null,
  ].filter(Boolean);
  return [
    `Fake App Store Connect: ${s.appStoreConnectUrl}`,
    `Fake Google Play:       ${s.googlePlayApiUrl} (token endpoint ${s.tokenUri})`,
    seeded.length ? `Seeded: ${seeded.join('; ')}` : 'Nothing seeded: pass --app-store-app ID and/or --play-package NAME.',
    '',
    'Run shotgen against them with:',
    `  APP_STORE_CONNECT_URL=${s.appStoreConnectUrl} GOOGLE_PLAY_API_URL=${s.googlePlayApiUrl} shotgen serve`,
    '',
    'Then create the connections (POST /public/v1/store-connections):',
    `  App Store:   {"store":"app-store","issuerId":"${s.issuerId}","keyId":"${s.keyId}","privateKey":<the PEM in ${s.privateKeyPath}>}`,
    `  Google Play: {"store":"google-play","serviceAccount":<the JSON in ${s.serviceAccountPath}>}`,
    '',
    'Each request is printed to stderr. Stop with Ctrl-C.',
  ].join('\n');
}

export async function runFakeStores(opts: FakeStoresOptions, started: (s: FakeStoresStarted) => void): Promise<void> {
  const onCall = (store: string) => (call: FakeCall) => process.stderr.write(`${store} ${call.method} ${call.path} ${call.status}\n`);
  const asc = await startFakeAppStoreConnect({ host: opts.host, port: opts.appStorePort, onCall: onCall('app-store') });
  try {
    const play = await startFakeGooglePlay({ host: opts.host, port: opts.playPort, onCall: onCall('google-play') });
    try {
      await mkdir(opts.dir, { recursive: true, mode: 0o700 });
      const key = generateAppStoreKey();
      const account = generateServiceAccount(play.tokenUri);
      const privateKeyPath = path.resolve(opts.dir, `AuthKey_${key.keyId}.p8`);
      const serviceAccountPath = path.resolve(opts.dir, 'service-account.json');
      await writePrivate(privateKeyPath, key.privateKeyPem);
      await writePrivate(serviceAccountPath, `${JSON.stringify(account.key, null, 2)}\n`);
      asc.addKey(key.issuerId, key.keyId, key.publicKeyPem);
      play.addServiceAccount(account.key.client_email, account.publicKeyPem);
      // A released 1.0 beside the editable version: product page optimization tests need one. iOS
      // and macOS (a universal purchase), so iPhone, iPad and Mac sets can all be published.
      if (opts.appStoreApp)
        asc.addApp({
          appId: opts.appStoreApp,
          locales: opts.locales,
          versionState: opts.versionState,
          liveVersion: true,
          platforms: ['IOS', 'MAC_OS'],
        });
      // Submitted custom product pages and tests pass review after a few seconds, so they can be started.
      asc.setReviewDelayMs(5_000);
      if (opts.playPackage) play.addApp(opts.playPackage, { listings: opts.locales });
      if (opts.processingDelayMs) asc.setProcessingDelayMs(opts.processingDelayMs);
      // Real rendered sets come through here: hold them to Apple's sizes, as the store would.
      asc.setDimensionCheck(true);
      play.setDimensionCheck(true);
      started({
        appStoreConnectUrl: asc.url,
        googlePlayApiUrl: play.url,
        tokenUri: play.tokenUri,
        issuerId: key.issuerId,
        keyId: key.keyId,
        privateKeyPath,
        clientEmail: account.key.client_email,
        serviceAccountPath,
        appStoreApp: opts.appStoreApp ?? null,
        playPackage: opts.playPackage ?? null,
        locales: opts.locales,
      });
      await opts.until;
    } finally {
      await play.close();
    }
  } finally {
    await asc.close();
  }
}
