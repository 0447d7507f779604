import { randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { Clock } from '../common/clock';
import { sha256Hex } from '../common/crypto/secrets';
import { appConfig, oidcConfig } from '../config/configuration';
import { Transactions, Tx } from '../database/transaction';
import { KeyEncryption } from '../oidc/keys/key-encryption';
import { SignInThrottleService } from '../rate-limit/sign-in-throttle.service';
import { ChangedBy, SignInChanges } from '../security-events/sign-in-changes.service';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { SecondFactorRepository } from './second-factor.repository';

/** RFC 6238 as every authenticator app reads it: 30-second steps, 6 digits, HMAC-SHA-1. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** RFC 6238 §5.2: one step either side, for clocks that drift and codes typed slowly. */
const WINDOW = 1;
/** 160 bits, the length of SHA-1's output (RFC 4226 §4, R6). */
const SECRET_BYTES = 20;
export const RECOVERY_CODE_COUNT = 10;
/** 16 characters of RFC 4648 base32: 80 bits each, so a stolen table of their SHA-256 hashes gives nothing. */
const RECOVERY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const RECOVERY_LENGTH = 16;

/** The authenticator of an account as the security page shows it. */
export type AuthenticatorState =
  | { state: 'off' }
  | { state: 'pending'; secret: string; uri: string; qrSvg: string }
  | { state: 'on'; recoveryCodesLeft: number };

/** One code checked: which kind worked, or why none did. */
export type CodeCheck =
  | { ok: true; method: 'totp' | 'recovery' }
  | { ok: false; problem: 'invalid_code' }
  | { ok: false; problem: 'throttled'; retryAfterSeconds: number };

/**
 * The authenticator app and recovery codes of an account (docs/second-factor.md; SECURITY.md, "Second
 * factor"). The secret is encrypted at rest with the key that protects the signing keys
 * (KEY_ENCRYPTION_SECRET), bound to its user's row; each TOTP code and each recovery code works once,
 * decided by a conditional UPDATE on the shared database; guesses take a slot on the sign-in throttle
 * (per account and per IP) before they are checked.
 */
@Injectable()
export class SecondFactorService {
  private readonly encryption: KeyEncryption;

  constructor(
    private readonly rows: SecondFactorRepository,
    private readonly transactions: Transactions,
    private readonly throttle: SignInThrottleService,
    private readonly users: UsersService,
    private readonly changes: SignInChanges,
    @Inject(oidcConfig.KEY) oidc: ConfigType<typeof oidcConfig>,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    private readonly clock: Clock,
  ) {
    this.encryption = new KeyEncryption(oidc.keyEncryptionSecret);
  }

  /** Whether a password sign-in of this user asks for a code. */
  async required(userId: number): Promise<boolean> {
    const authenticator = await this.rows.authenticatorOf(userId);
    return authenticator?.confirmedAt != null;
  }

  /** For the data download: whether the app is on (a setup not yet confirmed by a code is off) and the codes left; never a secret. */
  async summary(userId: number): Promise<{ authenticatorOn: boolean; recoveryCodesLeft: number }> {
    const [authenticator, recoveryCodesLeft] = await Promise.all([this.rows.authenticatorOf(userId), this.rows.unusedRecoveryCodes(userId)]);
    return { authenticatorOn: authenticator?.confirmedAt != null, recoveryCodesLeft };
  }

  async stateOf(user: User): Promise<AuthenticatorState> {
    const authenticator = await this.rows.authenticatorOf(user.id);
    if (!authenticator) return { state: 'off' };
    if (authenticator.confirmedAt !== null) return { state: 'on', recoveryCodesLeft: await this.rows.unusedRecoveryCodes(user.id) };
    const secret = this.encryption.decrypt(authenticator.secretEncrypted, secretAad(user.id));
    const uri = this.totp(secret, user.email).toString();
    // An inline SVG: the pages' CSP allows images from this site only (no data: URL), and inline SVG is markup.
    const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { state: 'pending', secret, uri, qrSvg };
  }

  /** **Set up an authenticator app**: a new secret, not asked for at sign-in until a code confirms it. */
  async startSetup(user: User): Promise<boolean> {
    const secret = new Secret({ size: SECRET_BYTES }).base32;
    return this.rows.startSetup(user.id, this.encryption.encrypt(secret, secretAad(user.id)), this.clock.now());
  }

  /** The first code from the app confirms the setup; the answer holds the recovery codes, to be shown once. */
  async confirm(user: User, code: string, by: ChangedBy): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; problem: 'invalid_code' | 'not_pending' }> {
    const authenticator = await this.rows.authenticatorOf(user.id);
    if (!authenticator || authenticator.confirmedAt !== null) return { ok: false, problem: 'not_pending' };
    const step = this.matchingStep(this.encryption.decrypt(authenticator.secretEncrypted, secretAad(user.id)), code);
    if (step === null) return { ok: false, problem: 'invalid_code' };
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const hashes = recoveryCodes.map(recoveryCodeHash);
    const change = this.changes.prepare(user, 'totp_enabled', by);
    // The setup, its event and its notice: one transaction (docs/second-factor.md).
    const logged = await this.transactions.run(async (tx) => ((await this.rows.confirm(tx, user.id, step, hashes, change.at)) ? this.changes.write(tx, change) : null));
    if (!logged) return { ok: false, problem: 'not_pending' };
    logged();
    return { ok: true, recoveryCodes };
  }

  /**
   * **New recovery codes** (docs/second-factor.md): ten new codes replace every earlier one, with their
   * security event and notice, in one transaction; the answer holds them, to be shown once.
   */
  async renewRecoveryCodes(user: User, by: ChangedBy): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; problem: 'not_on' }> {
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const hashes = recoveryCodes.map(recoveryCodeHash);
    const change = this.changes.prepare(user, 'recovery_codes_renewed', by);
    const logged = await this.transactions.run(async (tx) => ((await this.rows.replaceRecoveryCodes(tx, user.id, hashes, change.at)) ? this.changes.write(tx, change) : null));
    if (!logged) return { ok: false, problem: 'not_on' };
    logged();
    return { ok: true, recoveryCodes };
  }

  /**
   * The second step of a password sign-in: a current TOTP code not used before, or an unused recovery
   * code. Counted on the sign-in throttle (this account's code counter and the IP's) before it is checked.
   */
  async verify(user: User, code: string, by: ChangedBy): Promise<CodeCheck> {
    const now = this.clock.now();
    const reservation = await this.throttle.reserve(codeThrottleKey(user.id), this.throttle.ipKey(by.ip), now);
    if (!reservation.allowed) return { ok: false, problem: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
    const method = await this.check(user, code, now, by);
    if (!method) return { ok: false, problem: 'invalid_code' };
    await this.throttle.succeeded(reservation);
    return { ok: true, method };
  }

  /**
   * The authenticator app and its recovery codes, removed in the caller's transaction with no code asked:
   * the way back to an old address (SECURITY.md, "The old address losing the account for good"), where an
   * app a stranger turned on would otherwise lock the owner out. True when there was one.
   */
  forget(tx: Tx, userId: number): Promise<boolean> {
    return this.rows.remove(tx, userId);
  }

  /**
   * Turns the authenticator off (or drops one being set up): needs a current code (a recovery code
   * counts) or the account's password, guesses counted as at sign-in.
   */
  async turnOff(user: User, proof: { code?: string; password?: string }, by: ChangedBy): Promise<{ ok: true } | Exclude<CodeCheck, { ok: true }>> {
    const authenticator = await this.rows.authenticatorOf(user.id);
    if (!authenticator) return { ok: true };
    if (authenticator.confirmedAt !== null) {
      const proven = await this.prove(user, proof, by);
      if (!proven.ok) return proven;
    }
    const change = this.changes.prepare(user, 'totp_disabled', by);
    // Turned off, its event and its notice: one transaction; one still being set up goes without either.
    const logged = await this.transactions.run(async (tx) =>
      (await this.rows.remove(tx, user.id)) && authenticator.confirmedAt !== null ? this.changes.write(tx, change) : null,
    );
    logged?.();
    return { ok: true };
  }

  /**
   * The person's proof for a change that leaves the account with less (turning the app off, removing the
   * last passkey): a current code, or a recovery code (used up, with its event and notice), or the
   * account's password. Every guess takes a slot on this account's code counter and the IP's first, as at
   * sign-in, so neither a borrowed session nor thirty requests at once can try passwords faster.
   */
  async prove(user: User, proof: { code?: string; password?: string }, by: ChangedBy): Promise<{ ok: true } | Exclude<CodeCheck, { ok: true }>> {
    if (!proof.code && !proof.password) return { ok: false, problem: 'invalid_code' };
    const now = this.clock.now();
    const reservation = await this.throttle.reserve(codeThrottleKey(user.id), this.throttle.ipKey(by.ip), now);
    if (!reservation.allowed) return { ok: false, problem: 'throttled', retryAfterSeconds: reservation.retryAfterSeconds };
    const proven = proof.code ? (await this.check(user, proof.code, now, by)) !== null : (await this.users.authenticate(user.email, proof.password!)) !== null;
    if (!proven) return { ok: false, problem: 'invalid_code' };
    await this.throttle.succeeded(reservation);
    return { ok: true };
  }

  /**
   * Which kind of code worked, using it up; null when none did (wrong, or used before). A recovery code
   * used to sign in or to prove a change (`signingInBy`) is a change with its event and notice, written
   * with its use.
   */
  private async check(user: User, code: string, now: number, signingInBy?: ChangedBy): Promise<'totp' | 'recovery' | null> {
    const userId = user.id;
    const typed = code.replace(/[\s-]/g, '').toUpperCase();
    if (/^\d{6}$/.test(typed)) {
      const authenticator = await this.rows.authenticatorOf(userId);
      if (!authenticator || authenticator.confirmedAt === null) return null;
      const step = this.matchingStep(this.encryption.decrypt(authenticator.secretEncrypted, secretAad(userId)), typed, now);
      // RFC 6238 §5.2: a code is accepted once; a later step used already refuses this one too.
      return step !== null && (await this.rows.useStep(userId, step)) ? 'totp' : null;
    }
    if (typed.length === RECOVERY_LENGTH && [...typed].every((c) => RECOVERY_ALPHABET.includes(c))) {
      const change = signingInBy ? this.changes.prepare(user, 'recovery_code_used', signingInBy) : null;
      const used = await this.transactions.run(async (tx) => {
        if (!(await this.rows.useRecoveryCode(tx, userId, recoveryCodeHash(typed), now))) return null;
        return change ? this.changes.write(tx, change) : () => undefined;
      });
      if (!used) return null;
      used();
      return 'recovery';
    }
    return null;
  }

  /** The RFC 6238 time step whose code this is, within one step of now; null if none. */
  private matchingStep(secret: string, code: string, now = this.clock.now()): number | null {
    const typed = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(typed)) return null;
    const delta = this.totp(secret, '').validate({ token: typed, timestamp: now, window: WINDOW });
    return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
  }

  private totp(secret: string, label: string): TOTP {
    return new TOTP({ issuer: this.app.platformName, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
  }

}

/** The throttle counter of one account's code guesses, apart from its password counter. */
export function codeThrottleKey(userId: number): string {
  return `code:${userId}`;
}

/** The encrypted secret opens only on its own user's row. */
function secretAad(userId: number): string {
  return `totp-secret:${userId}`;
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

function recoveryCodeHash(code: string): string {
  return sha256Hex(`recovery-code:${code.replace(/-/g, '')}`);
}
