/** The embedded postmaster killed under load (see ./outage-support.ts for what an outage must look like). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { postmasterPid, startServe, waitForDeath } from '../cli/helpers.ts';
import { recovery, startLoad } from '../support/load.ts';
import { cleanUpAfterEach, dataDir, ENV, expectConsistent, expectOnly503s, seed, started } from './outage-support.ts';

cleanUpAfterEach();

describe('database outages under load', () => {
  it('the embedded postmaster killed with SIGKILL: restarted by serve, 503s meanwhile, then served again', async () => {
    const dir = dataDir();
    const serve = (started.serve = await startServe({ DATA_DIR: dir, PORT: '0', ...ENV }));
    const url = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(path.join(dir, 'run'))}&port=5432`;
    const { accountId, key, appId } = await seed(url);
    const load = startLoad({ base: `${serve.address}/api/v1`, key, appId });
    await load.successAfter(Date.now() + 1_000);

    const dead = postmasterPid(dir)!;
    const killedAt = Date.now();
    process.kill(dead, 'SIGKILL');
    await waitForDeath(dead);
    const firstFailure = await load.failureAfter(killedAt);
    const back = await load.successAfter(firstFailure);
    await load.successAfter(Date.now() + 1_000);
    const report = await load.stop();

    const { failures, recoveredAt } = recovery(report, killedAt);
    console.log(
      `embedded kill: ${failures} answers were 5xx (${JSON.stringify(report.fiveXx)}); first 503 ${firstFailure - killedAt} ms after the kill, ` +
        `a create served again ${back - killedAt} ms after it, the last 503 ${recoveredAt! - killedAt} ms after it`,
    );
    expect(failures).toBeGreaterThan(0);
    expectOnly503s(report);
    expect(serve.proc.exitCode).toBeNull();
    const restarted = postmasterPid(dir);
    expect(restarted).not.toBe(dead);
    expect(fs.readFileSync(path.join(dir, 'run', 'postgres.log'), 'utf8')).toMatch(
      /database system was interrupted|not properly shut down|automatic recovery/,
    );
    await expectConsistent(url, accountId, report);
    expect(await serve.terminate()).toBe(0);
    started.serve = null;
  });
});
