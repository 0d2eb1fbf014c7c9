import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FakeStoresStarted } from '../../src/fake-stores/cli.ts';
import type { AppStoreTestKey, ServiceAccountKey } from '../../src/fake-stores/keys.ts';
import { main } from '../../src/main.ts';
import { shotgen, type Child } from '../support/processes.ts';
import { ascClient, playToken } from './helpers.ts';

let dir: string;
let child: Child | undefined;
afterEach(async () => {
  await child?.stop();
  child = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('shotgen fake-stores', () => {
  it('starts both fakes, writes working credentials, seeds the app and stops on SIGTERM', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'fake-stores-'));
    const keys = path.join(dir, 'keys');
    child = shotgen(
      [
        'fake-stores',
        '--json',
        ...['--app-store-port', '0', '--play-port', '0', '--dir', keys],
        ...['--app-store-app', '1234', '--play-package', 'com.example.planner', '--locales', 'en-US, de-DE'],
      ],
      { DATA_DIR: dir },
    );
    await child.printed('"serviceAccountPath"');
    const started = JSON.parse(
      child
        .output()
        .split('\n')
        .find((l) => l.startsWith('{'))!,
    ) as FakeStoresStarted;
    expect(started).toMatchObject({ appStoreApp: '1234', playPackage: 'com.example.planner', locales: ['en-US', 'de-DE'] });
    expect(path.dirname(started.privateKeyPath)).toBe(keys);
    for (const file of [started.privateKeyPath, started.serviceAccountPath]) expect((await stat(file)).mode & 0o777).toBe(0o600);

    const key: AppStoreTestKey = {
      issuerId: started.issuerId,
      keyId: started.keyId,
      privateKeyPem: await readFile(started.privateKeyPath, 'utf8'),
      publicKeyPem: '',
    };
    expect(key.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const call = ascClient(started.appStoreConnectUrl, key);
    const versions = await call('GET', '/v1/apps/1234/appStoreVersions?filter[platform]=IOS&filter[appStoreState]=PREPARE_FOR_SUBMISSION');
    expect(versions.status).toBe(200);
    const localizations = await call('GET', `/v1/appStoreVersions/${versions.body.data[0].id}/appStoreVersionLocalizations`);
    expect(localizations.body.data.map((l: { attributes: { locale: string } }) => l.attributes.locale)).toEqual(['en-US', 'de-DE']);

    const account = JSON.parse(await readFile(started.serviceAccountPath, 'utf8')) as ServiceAccountKey;
    expect(account).toMatchObject({ type: 'service_account', token_uri: started.tokenUri, client_email: started.clientEmail });
    const token = await playToken(account);
    const edit = await fetch(`${started.googlePlayApiUrl}/androidpublisher/v3/applications/com.example.planner/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    expect(edit.status).toBe(200);
    await child.printed('google-play POST /androidpublisher/v3/applications/com.example.planner/edits 200');

    expect(await child.stop('SIGTERM')).toBe(0);
    await expect(fetch(started.appStoreConnectUrl)).rejects.toThrow();
  });

  it('refuses a port that is not one, as a usage error', async () => {
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      expect(await main(['fake-stores', '--app-store-port', '70000'])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(stderr).toContain('--app-store-port must be a whole number up to 65535');
  });
});
