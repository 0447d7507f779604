import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;
// OWASP's scrypt baseline (N=2^17, r=8, p=1) costs ~128 MiB per hash; 2^15 keeps a sign-in near 50 ms
// on a small machine while staying far beyond what brute force can afford.
const DEFAULT_COST = { N: 2 ** 15, r: 8, p: 1 };

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { ...options, maxmem: 256 * options.N! * options.r! }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Slow password hashing with scrypt from node:crypto; the parameters travel with the hash. */
export const PasswordHasher = {
  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await scryptAsync(password, salt, DEFAULT_COST);
    const { N, r, p } = DEFAULT_COST;
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
  },

  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, salt, key] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !key) return false;
    const expected = Buffer.from(key, 'base64url');
    const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  },

  /** A hash to verify against when the account does not exist, so both paths take the same time. */
  dummy: 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
};
