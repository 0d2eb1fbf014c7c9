/**
 * The command's dispatch, in process: main() parses and answers without spawning anything, so
 * checks that need no database run in milliseconds (cli.test.ts runs the command as a process).
 */
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/main.ts';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('shotgen --help', () => {
  const commands = [
    [],
    ['serve'],
    ['migrate'],
    ['accounts'],
    ['accounts', 'create'],
    ['accounts', 'list'],
    ['keys'],
    ['keys', 'create'],
    ['keys', 'list'],
    ['keys', 'revoke'],
    ['credits'],
    ['credits', 'grant'],
    ['demo'],
  ];

  it.each(commands.map((c) => [['shotgen', ...c].join(' '), c] as const))(
    '%s prints its help on stdout, says it takes --json, exit 0',
    async (name, c) => {
      const r = await run([...c, '--help']);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toContain(`Usage: ${name} `);
      expect(r.stdout).toContain('--json');
    },
  );

  it('lists the plans and names the key argument', async () => {
    expect((await run(['accounts', 'create', '--help'])).stdout).toMatch(/--plan <plan>.*choices: "free", "starter", "pro", "scale"/s);
    expect((await run(['keys', 'revoke', '--help'])).stdout).toContain('<keyId>');
  });

  it('demo says what it makes and that it needs no network', async () => {
    const help = (await run(['demo', '--help'])).stdout;
    expect(help).toMatch(/no network beyond localhost/);
    expect(help).toMatch(/--stop/);
    expect(await run(['demo', '--timeout', '0'])).toMatchObject({ code: 2, stdout: '' });
  });

  it('a usage error is one line on stderr and exit 2, before any database is opened', async () => {
    const r = await run(['accounts', 'create', '--name', 'X', '--plan', 'platinum']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^shotgen: .*'platinum' is invalid.*\n$/);
  });
});
