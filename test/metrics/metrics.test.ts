import { afterAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/metrics/index.ts';
import { RenderPool } from '../../src/rendering/index.ts';
import { slide } from '../rendering/support.ts';

const count = async (name: string, labels: Record<string, string>) => {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as { metricName?: string; labels: Record<string, string | number>; value: number }[];
  return values.find((v) => v.metricName === `${name}_count` && Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value ?? 0;
};

describe('render durations', () => {
  const pool = new RenderPool({ threads: 1 });
  afterAll(() => pool.close());

  it('are observed for every completed set, by device, and not for an aborted one', async () => {
    const before = await count('shotgen_render_duration_seconds', { device: 'android-phone' });
    await pool.renderSet({ device: 'android-phone', slides: [slide(0, 'Hello', 'text-only')], screens: [null] });
    const ctl = new AbortController();
    ctl.abort(new Error('stop'));
    await expect(
      pool.renderSet({ device: 'android-phone', slides: [slide(0, 'x', 'text-only')], screens: [null] }, { signal: ctl.signal }),
    ).rejects.toThrow('stop');
    expect(await count('shotgen_render_duration_seconds', { device: 'android-phone' })).toBe(before + 1);
  });
});
