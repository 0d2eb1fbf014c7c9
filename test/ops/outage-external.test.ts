/** An external PostgreSQL restarted under load (see ./outage-support.ts for what an outage must look like). */
import { describe, expect, it } from 'vitest';
import { startServe } from '../cli/helpers.ts';
import { recovery, startLoad } from '../support/load.ts';
import { tcpPostgres } from '../support/tcp-postgres.ts';
import { cleanUpAfterEach, dataDir, ENV, expectConsistent, expectOnly503s, seed, started } from './outage-support.ts';

cleanUpAfterEach();

describe('database outages under load', () => {
  it('an external server restarted (fast shutdown, down for a second): 503s meanwhile, then served again', async () => {
    const dir = dataDir();
    const external = (started.external = await tcpPostgres());
    const serve = (started.serve = await startServe({ DATA_DIR: dir, DATABASE_URL: external.url, PORT: '0', ...ENV }));
    const { accountId, key, appId } = await seed(external.url);
    const load = startLoad({ base: `${serve.address}/api/v1`, key, appId });
    await load.successAfter(Date.now() + 1_000);

    const restartedAt = Date.now();
    await external.restart(1_000);
    const upAt = Date.now();
    const back = await load.successAfter(upAt);
    await load.successAfter(Date.now() + 1_000);
    const report = await load.stop();

    const { failures, recoveredAt } = recovery(report, restartedAt);
    console.log(
      `external restart: down ${upAt - restartedAt} ms, ${failures} answers were 5xx (${JSON.stringify(report.fiveXx)}); ` +
        `a create served ${back - upAt} ms after the server was back, the last 503 ${recoveredAt! - upAt} ms after`,
    );
    expect(failures).toBeGreaterThan(0);
    expectOnly503s(report);
    expect(serve.proc.exitCode).toBeNull();
    await expectConsistent(external.url, accountId, report);
    expect(await serve.terminate()).toBe(0);
    started.serve = null;
  });
});
