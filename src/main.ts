/**
 * The `shotgen` command: serve, migrate, accounts, keys, users, credits; and the client commands
 * generate, jobs get and mcp (src/client/), which use a server over HTTP. Every command takes --json.
 * Commands other than serve work whether or not a server runs on the embedded database: they
 * attach to the running one, or start it for the command and stop it after.
 */
import { CommanderError } from 'commander';
import { ConfigError } from './config.ts';
import { PlacementError } from './db/placement.ts';
import { isProblem, type Problem } from './core/problem.ts';
import { ClientFailure } from './client/exit-codes.ts';
import { program, UsageError } from './cli/program.ts';

/** A problem with field errors names each of them, not "see errors". */
const problemText = (p: Problem): string => {
  const errors = p.extensions.errors as { field: string; message: string }[] | undefined;
  return errors?.length ? errors.map((e) => `${e.field}: ${e.message}`).join('; ') : p.detail;
};

/** Errors go to stderr as one line, so that scripts can log or match them. */
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

export async function main(argv: string[]): Promise<number> {
  const cli = program();
  try {
    await cli.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      // commander.help: help was asked for implicitly (no subcommand) and is already on stderr.
      if (error.code !== 'commander.help')
        process.stderr.write(`shotgen: ${oneLine(error.message.replace(/^error: /, ''))} (see --help)\n`);
      return 2;
    }
    if (error instanceof ClientFailure) {
      process.stderr.write(`shotgen: ${oneLine(error.message)}\n`);
      return error.exitCode;
    }
    const message =
      error instanceof UsageError || error instanceof ConfigError || error instanceof PlacementError
        ? error.message
        : isProblem(error)
          ? problemText(error)
          : `unexpected error: ${(error as Error).message}`;
    process.stderr.write(`shotgen: ${oneLine(message)}\n`);
    return error instanceof UsageError || isProblem(error) ? 2 : 1;
  }
}
