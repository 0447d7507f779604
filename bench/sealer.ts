// The two AES-256-GCM wrappers (src/common/crypto/sealer.ts for cookies, src/oidc/keys/key-encryption.ts
// for signing keys and authenticator secrets at rest) against jose's compact JWE with `dir` and `A256GCM`
// (RFC 7516, RFC 7518 §5.3), which gives the same guarantees: a random 96-bit IV, a 128-bit tag, the
// purpose or row bound in as authenticated data (for JWE, in the protected header, RFC 7516 §5.1 step 14).
// Measured on what the service does with them: seal and open the sign-in session's payload (every page
// read and sign-in), and encrypt and decrypt an authenticator's secret (every code checked).
//   npx tsx bench/sealer.ts [iterations=20000]
import { createSecretKey, hkdfSync, randomBytes } from 'node:crypto';
import { compactDecrypt, CompactEncrypt } from 'jose';
import { Sealer } from '../src/common/crypto/sealer';
import { KeyEncryption } from '../src/oidc/keys/key-encryption';

const ITERATIONS = Number(process.argv[2] ?? 20_000);
const SECRET = randomBytes(32).toString('base64url');
const NOW = Date.now();
const SESSION = { sid: randomBytes(16).toString('base64url'), uid: 123456, at: NOW, amr: ['pwd', 'otp'], acr: 'urn:startup-platform:acr:mfa' };
const TOTP_SECRET = randomBytes(20).toString('base64url');

async function cpuPerCall(work: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(ITERATIONS, 2000); i++) await work();
  const started = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i++) await work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / ITERATIONS;
}

async function main(): Promise<void> {
  const sealer = new Sealer(SECRET, 'session');
  // A KeyObject for jose too, so that neither side imports its key per call.
  const jweKey = createSecretKey(new Uint8Array(hkdfSync('sha256', SECRET, 'startup-platform/oauth', 'seal:session', 32)));
  const encoder = new TextEncoder();
  const jweSeal = (payload: object, purpose: string) =>
    new CompactEncrypt(encoder.encode(JSON.stringify({ ...payload, exp: NOW + 3600_000 }))).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: purpose }).encrypt(jweKey);
  const jweOpen = async (value: string, purpose: string) => {
    const { plaintext, protectedHeader } = await compactDecrypt(value, jweKey, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    if (protectedHeader.kid !== purpose) throw new Error('another purpose');
    return JSON.parse(new TextDecoder().decode(plaintext)) as object;
  };
  const sealed = sealer.seal(SESSION, NOW + 3600_000);
  const jwe = await jweSeal(SESSION, 'session');

  const keys = new KeyEncryption(SECRET);
  const stored = keys.encrypt(TOTP_SECRET, 'totp:42');
  const storedJwe = await new CompactEncrypt(encoder.encode(TOTP_SECRET)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: keys.secretId, row: 'totp:42' }).encrypt(jweKey);

  const rows: Array<[string, number, number]> = [
    ['seal the session (a sign-in)', await cpuPerCall(() => sealer.seal(SESSION, NOW + 3600_000)), await cpuPerCall(() => jweSeal(SESSION, 'session'))],
    ['open the session (every page)', await cpuPerCall(() => sealer.open(sealed, NOW)), await cpuPerCall(() => jweOpen(jwe, 'session'))],
    ['decrypt a TOTP secret (every code)', await cpuPerCall(() => keys.decrypt(stored, 'totp:42')), await cpuPerCall(() => compactDecrypt(storedJwe, jweKey))],
  ];
  console.log(`${ITERATIONS} calls each, CPU µs per call (user + system)`);
  console.log(`${'operation'.padEnd(36)} ${'src (node:crypto)'.padStart(18)} ${'jose JWE dir+A256GCM'.padStart(22)}`);
  for (const [name, ours, jose] of rows) console.log(`${name.padEnd(36)} ${ours.toFixed(2).padStart(18)} ${jose.toFixed(2).padStart(22)}   ${(jose / ours).toFixed(1)}×`);
  console.log(`session cookie: ${sealed.length} characters sealed, ${jwe.length} as a compact JWE`);
}

void main();
