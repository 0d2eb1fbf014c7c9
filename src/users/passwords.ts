/**
 * Password hashing: argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane),
 * about 80 ms a verify here, run on libuv's thread pool so the event loop keeps serving.
 */
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id; the package's enum is an ambient const enum, which verbatimModuleSyntax forbids.
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 10;
/** Long enough for any passphrase, short enough that hashing cannot be made a denial of service. */
export const PASSWORD_MAX = 256;

export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  return null;
}

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// Verified against when the email is unknown, so that the answer takes as long as for a known
// one and timing does not tell which addresses have an account.
let dummy: Promise<string> | null = null;
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword('not the password of anyone');
  await verifyPassword(await dummy, password);
  return false;
}
