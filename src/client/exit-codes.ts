/**
 * The client commands' exit codes (README, "Client commands"): a script branches on what failed.
 * Kept free of imports: main() loads it for every command.
 */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  /** The API refused the request (a 4xx problem: bad input, key, credits, unknown id). */
  refused: 3,
  /** The job ended `failed` (its credits were refunded). */
  jobFailed: 4,
  /** No answer: network error, 5xx, still rate limited after the retries, or a download that came out corrupt. */
  unavailable: 5,
  /** --timeout passed with the job still queued or running. */
  timedOut: 6,
} as const;

/** A client command's failure: one line for stderr and the exit code that names it. */
export class ClientFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
