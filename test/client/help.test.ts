/** The client commands' dispatch, in process: help, and usage errors before any request. */
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/main.ts';

async function run(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    process.env = saved;
    out.mockRestore();
    err.mockRestore();
  }
}

describe('shotgen generate, jobs get, mcp', () => {
  it.each([['generate'], ['jobs', 'get'], ['mcp']])('shotgen %s --help names SHOTGEN_URL/--json and exits 0', async (...c) => {
    const r = await run([...c, '--help']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain(`Usage: shotgen ${c.join(' ')}`);
    expect(r.stdout).toContain('--json');
  });

  it('generate --help lists the devices and styles', async () => {
    const r = await run(['generate', '--help']);
    expect(r.stdout).toMatch(/--device <device>.*"iphone-69"/s);
    expect(r.stdout).toMatch(/--style <style>.*"aso-expert"/s);
  });

  it('usage errors exit 2 with one line, before any request', async () => {
    const noKey = await run(['jobs', 'get', 'job_1'], { SHOTGEN_API_KEY: undefined });
    expect(noKey).toMatchObject({ code: 2, stdout: '' });
    expect(noKey.stderr).toMatch(/^shotgen: SHOTGEN_API_KEY is not set[^\n]*\n$/);
    const badUrl = await run(['jobs', 'get', 'job_1'], { SHOTGEN_API_KEY: 'sk_live_x', SHOTGEN_URL: 'ftp://x' });
    expect(badUrl).toMatchObject({ code: 2, stderr: 'shotgen: SHOTGEN_URL: expected an http(s) URL, got "ftp://x"\n' });
    const count = await run(['generate', '--ios', 'x', '--device', 'iphone-69', '--count', '11', '--out', 'o'], {
      SHOTGEN_API_KEY: 'sk_live_x',
    });
    expect(count).toMatchObject({ code: 2, stderr: 'shotgen: --count must be a whole number from 1 to 10, got "11"\n' });
    const noOut = await run(['generate', '--ios', 'x', '--device', 'iphone-69'], { SHOTGEN_API_KEY: 'sk_live_x' });
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--out');
  });
});
