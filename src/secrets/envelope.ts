/**
 * Envelope encryption of secrets at rest: each value gets its own random data key (AES-256-GCM),
 * and only that data key is encrypted ("wrapped") under the master key from SECRETS_KEY. Rotating
 * the master key then re-wraps 32-byte data keys instead of touching every secret's ciphertext,
 * and a database dump holds only ciphertext whatever it contains.
 *
 * A sealed value is one text: `v1.<kid>.<wrapped data key>.<ciphertext>`, each part base64url of
 * iv (12) | tag (16) | bytes. The caller's `context` (e.g. the row's id) is bound as additional
 * authenticated data, so a ciphertext copied into another row does not open there.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const IV = 12;
const TAG = 16;

/** Short public fingerprint of a master key: which key wrapped a row, without revealing it. */
export const keyIdOf = (key: Buffer): string => createHash('sha256').update('shotgen-secrets-kid').update(key).digest('hex').slice(0, 12);

function encrypt(key: Buffer, plain: Buffer, aad: string): string {
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function decrypt(key: Buffer, sealed: string, aad: string): Buffer {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < IV + TAG) throw new SecretError('sealed value is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(raw.subarray(IV, IV + TAG));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV + TAG)), decipher.final()]);
  } catch {
    throw new SecretError('sealed value does not authenticate (wrong key or context, or altered)');
  }
}

export class SecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretError';
  }
}

/**
 * The master keys this process knows: the current one seals, any of them opens (the previous keys
 * are kept only until `shotgen secrets rotate` has re-wrapped every row).
 */
export class Keyring {
  readonly currentId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(
    private readonly current: Buffer,
    previous: Buffer[] = [],
  ) {
    if (current.length !== 32) throw new SecretError('a secrets key is 32 bytes');
    this.currentId = keyIdOf(current);
    for (const k of [current, ...previous]) this.keys.set(keyIdOf(k), k);
  }

  seal(plain: string, context: string): string {
    const dataKey = randomBytes(32);
    const wrapped = encrypt(this.current, dataKey, `dk:${context}`);
    const body = encrypt(dataKey, Buffer.from(plain, 'utf8'), context);
    dataKey.fill(0);
    return `v1.${this.currentId}.${wrapped}.${body}`;
  }

  open(sealed: string, context: string): string {
    const { kid, wrapped, body } = parse(sealed);
    const dataKey = decrypt(this.master(kid), wrapped, `dk:${context}`);
    try {
      return decrypt(dataKey, body, context).toString('utf8');
    } finally {
      dataKey.fill(0);
    }
  }

  /** The same secret with its data key wrapped under the current key; the ciphertext is unchanged. */
  rewrap(sealed: string, context: string): string {
    const { kid, wrapped, body } = parse(sealed);
    if (kid === this.currentId) return sealed;
    const dataKey = decrypt(this.master(kid), wrapped, `dk:${context}`);
    try {
      return `v1.${this.currentId}.${encrypt(this.current, dataKey, `dk:${context}`)}.${body}`;
    } finally {
      dataKey.fill(0);
    }
  }

  /** The key id a sealed value is wrapped under. */
  static keyIdOfSealed(sealed: string): string {
    return parse(sealed).kid;
  }

  private master(kid: string): Buffer {
    const key = this.keys.get(kid);
    if (!key) throw new SecretError(`sealed under key ${kid}, which is not configured (SECRETS_KEY / SECRETS_KEY_PREVIOUS)`);
    return key;
  }
}

/** A value this module sealed, as opposed to one kept in clear from before a key was configured. */
export const isSealed = (value: string): boolean => value.startsWith('v1.') && value.split('.').length === 4;

function parse(sealed: string): { kid: string; wrapped: string; body: string } {
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') throw new SecretError('not a sealed value');
  return { kid: parts[1], wrapped: parts[2], body: parts[3] };
}
