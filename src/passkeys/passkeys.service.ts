import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import {
  AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { Clock } from '../common/clock';
import { sha256Hex } from '../common/crypto/secrets';
import { appConfig, authConfig } from '../config/configuration';
import { Transactions, Tx } from '../database/transaction';
import { SecondFactorService } from '../second-factor/second-factor.service';
import { ChangedBy, SignInChanges } from '../security-events/sign-in-changes.service';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Sealer } from '../common/crypto/sealer';
import type { Session } from '../web/session/session.service';
import { Passkey } from './passkey.entity';
import { PasskeysRepository } from './passkeys.repository';

/** How long a page's challenge can be answered. */
const CHALLENGE_MS = 5 * 60 * 1000;
export const MAX_PASSKEY_NAME = 100;

type Purpose = 'register' | 'authenticate';

interface SealedChallenge {
  sid: string;
  purpose: Purpose;
  /** 128 random bits, so two challenges of one session never repeat (WebAuthn §13.4.3). */
  n: string;
}

/** `unverified`: a valid answer whose authenticator did not verify the user (no PIN, fingerprint or face: WebAuthn §6.1 flag UV). */
export type PasskeyProblem = 'invalid_name' | 'refused' | 'unverified';

/**
 * Passkeys (WebAuthn Level 3 with @simplewebauthn/server; docs/second-factor.md "Passkeys"). The
 * relying party is PUBLIC_URL: its host is the RP ID, its origin the only origin accepted, so a passkey
 * answers only this site (phishing resistance). A challenge is sealed (AES-256-GCM) with the browser's
 * session id and its purpose, expires after 5 minutes (the injected clock) and works once on every
 * instance (`passkey_challenges_used`): a challenge of another session, an old one or a replayed
 * response is refused.
 */
@Injectable()
export class PasskeysService {
  private readonly sealer: Sealer;
  readonly rpId: string;
  readonly origin: string;

  constructor(
    private readonly rows: PasskeysRepository,
    private readonly transactions: Transactions,
    private readonly users: UsersService,
    private readonly secondFactor: SecondFactorService,
    private readonly changes: SignInChanges,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    @Inject(authConfig.KEY) auth: ConfigType<typeof authConfig>,
    private readonly clock: Clock,
  ) {
    this.sealer = new Sealer(auth.sessionSecret, 'passkey-challenge');
    const url = new URL(app.publicUrl);
    this.rpId = url.hostname;
    this.origin = url.origin;
  }

  list(userId: number): Promise<Passkey[]> {
    return this.rows.ofUser(userId);
  }

  /** **Add a passkey**: the options of `navigator.credentials.create`, as JSON for the page's script. */
  async registrationOptions(user: User, session: Session): Promise<string> {
    const existing = await this.rows.ofUser(user.id);
    const options = await generateRegistrationOptions({
      rpName: this.app.platformName,
      rpID: this.rpId,
      userName: user.email,
      userDisplayName: user.name,
      userID: new TextEncoder().encode(`user:${user.id}`),
      challenge: this.challenge(session, 'register'),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p) })),
      // A discoverable credential, so that signing in needs no email (WebAuthn §6.2.2), and one that
      // verifies the user (a PIN, a fingerprint, a face), so that it stands for two factors (RFC 8176 `mfa`).
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    });
    return JSON.stringify(options);
  }

  /** Verifies the browser's answer to the registration options of this session and stores the passkey. */
  async register(user: User, session: Session, credential: string, name: string, by: ChangedBy): Promise<{ ok: true } | { ok: false; problem: PasskeyProblem }> {
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > MAX_PASSKEY_NAME || /[\p{Cc}\p{Cf}]/u.test(trimmed)) return { ok: false, problem: 'invalid_name' };
    const response = parseJson<RegistrationResponseJSON>(credential);
    if (!response) return { ok: false, problem: 'refused' };
    let challenge: string | undefined;
    try {
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: (value) => (challenge = value) !== undefined && this.opens(value, session, 'register'),
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        // The UV flag is checked below, once the answer is known to be genuine, so the page can say why.
        requireUserVerification: false,
      });
      if (!verification.verified) return { ok: false, problem: 'refused' };
      // WebAuthn §7.1 step 15: user verification is required, so an answer without the UV flag adds nothing.
      if (!verification.registrationInfo.userVerified) return { ok: false, problem: 'unverified' };
      if (!challenge || !(await this.useChallenge(challenge))) return { ok: false, problem: 'refused' };
      const { credential: made } = verification.registrationInfo;
      const passkey = Object.assign(new Passkey(), {
        id: made.id,
        userId: user.id,
        publicKey: Buffer.from(made.publicKey).toString('base64url'),
        counter: made.counter,
        transports: made.transports?.length ? made.transports.join(' ').slice(0, 200) : null,
        name: trimmed,
        createdAt: this.clock.now(),
        lastUsedAt: null,
      });
      const change = this.changes.prepare(user, 'passkey_added', by, trimmed);
      // The passkey, its event and its notice: one transaction (docs/second-factor.md).
      const logged = await this.transactions.run(async (tx) => ((await this.rows.insert(tx, passkey)) ? this.changes.write(tx, change) : null));
      if (!logged) return { ok: false, problem: 'refused' };
      logged();
    } catch {
      return { ok: false, problem: 'refused' };
    }
    return { ok: true };
  }

  /** **Sign in with a passkey** and autofill: the options of `navigator.credentials.get`, for any account. */
  async authenticationOptions(session: Session): Promise<string> {
    const options = await generateAuthenticationOptions({ rpID: this.rpId, challenge: this.challenge(session, 'authenticate'), userVerification: 'required', allowCredentials: [] });
    return JSON.stringify(options);
  }

  /**
   * A passkey sign-in: the assertion answers a challenge of this session, is signed by a stored passkey
   * for this RP ID and origin, has not been used before, and its authenticator verified the user (a PIN,
   * a fingerprint, a face: with the key, two factors, RFC 8176 `mfa`). A genuine answer without user
   * verification is `unverified`, with the passkey's owner, so that the refusal is a failed sign-in of
   * that account; it neither uses the challenge nor moves the counter.
   */
  async authenticate(session: Session, credential: string): Promise<{ ok: true; user: User } | { ok: false; problem: 'refused' } | { ok: false; problem: 'unverified'; userId: number }> {
    const refused = { ok: false, problem: 'refused' } as const;
    const response = parseJson<AuthenticationResponseJSON>(credential);
    if (!response || typeof response.id !== 'string') return refused;
    const passkey = await this.rows.byId(response.id);
    if (!passkey) return refused;
    let challenge: string | undefined;
    try {
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: (value) => (challenge = value) !== undefined && this.opens(value, session, 'authenticate'),
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: transportsOf(passkey) },
        // The UV flag is checked below, once the signature is known to be genuine, so the page can say why.
        requireUserVerification: false,
      });
      if (!verification.verified) return refused;
      // WebAuthn §7.2 step 17: user verification is required; without it the key alone is one factor.
      if (!verification.authenticationInfo.userVerified) return { ok: false, problem: 'unverified', userId: passkey.userId };
      if (!challenge || !(await this.useChallenge(challenge))) return refused;
      if (!(await this.rows.used(passkey.id, passkey.counter, verification.authenticationInfo.newCounter, this.clock.now()))) return refused;
      const user = await this.users.findById(passkey.userId);
      return user ? { ok: true, user } : refused;
    } catch {
      return refused;
    }
  }

  /**
   * Every passkey of the account, removed in the caller's transaction: the way back to an old address
   * (SECURITY.md, "The old address losing the account for good") takes back every way in the stranger
   * may have added. Returns how many there were.
   */
  forgetAll(tx: Tx, userId: number): Promise<number> {
    return this.rows.removeAllOfUser(tx, userId);
  }

  async rename(user: User, id: string, name: string): Promise<{ ok: true } | { ok: false; problem: 'invalid_name' | 'not_owned' }> {
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > MAX_PASSKEY_NAME || /[\p{Cc}\p{Cf}]/u.test(trimmed)) return { ok: false, problem: 'invalid_name' };
    return (await this.rows.rename(user.id, id, trimmed)) ? { ok: true } : { ok: false, problem: 'not_owned' };
  }

  /**
   * **Remove**: the last passkey of an account needs the password or a current code (an account left
   * without it should be one whose owner proved themselves again, not one a borrowed session strips).
   */
  async remove(user: User, id: string, proof: { password?: string; code?: string }, by: ChangedBy): Promise<{ ok: true } | { ok: false; problem: 'not_owned' | 'proof_needed' | 'throttled'; retryAfterSeconds?: number }> {
    const passkeys = await this.rows.ofUser(user.id);
    const removed = passkeys.find((p) => p.id === id);
    if (!removed) return { ok: false, problem: 'not_owned' };
    const last = passkeys.length === 1;
    if (last) {
      // Counted as sign-in guesses are: the password asked here is no easier to guess than at sign-in.
      const proven = await this.secondFactor.prove(user, proof, by);
      if (!proven.ok) return proven.problem === 'throttled' ? { ok: false, problem: 'throttled', retryAfterSeconds: proven.retryAfterSeconds } : { ok: false, problem: 'proof_needed' };
    }
    const change = this.changes.prepare(user, 'passkey_removed', by, removed.name);
    // Without a proof, another passkey must still be there when the row goes, not only when it was counted.
    const outcome = await this.transactions.run(async (tx) => {
      const result = last ? ((await this.rows.remove(tx, user.id, id)) ? 'removed' : 'not_owned') : await this.rows.removeUnlessLast(tx, user.id, id);
      return { result, logged: result === 'removed' ? await this.changes.write(tx, change) : null };
    });
    if (outcome.result === 'last') return { ok: false, problem: 'proof_needed' };
    if (!outcome.logged) return { ok: false, problem: 'not_owned' };
    outcome.logged();
    return { ok: true };
  }

  private challenge(session: Session, purpose: Purpose): Uint8Array<ArrayBuffer> {
    const sealed = this.sealer.seal({ sid: session.sid, purpose, n: randomBytes(16).toString('base64url') } satisfies SealedChallenge, this.clock.now() + CHALLENGE_MS);
    return new Uint8Array(Buffer.from(sealed, 'utf8'));
  }

  /** Whether the challenge (base64url, as in clientDataJSON) is one this server sealed for this session and purpose, not expired. */
  private opens(challenge: string, session: Session, purpose: Purpose): boolean {
    const opened = this.sealer.open<SealedChallenge>(Buffer.from(challenge, 'base64url').toString('utf8'), this.clock.now());
    return opened !== null && opened.sid === session.sid && opened.purpose === purpose;
  }

  /**
   * Single use, on every instance, until the challenge could no longer be answered anyway; the rows of
   * challenges expired since go at the same time (one indexed DELETE per ceremony), so the table holds
   * only the last few minutes' ceremonies.
   */
  private async useChallenge(challenge: string): Promise<boolean> {
    const now = this.clock.now();
    const won = await this.rows.useChallenge(sha256Hex(`passkey-challenge:${challenge}`), now + CHALLENGE_MS);
    if (won) await this.rows.purgeChallenges(now);
    return won;
  }

}

function transportsOf(passkey: Passkey): Array<'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb'> | undefined {
  return passkey.transports ? (passkey.transports.split(' ') as Array<'internal'>) : undefined;
}

function parseJson<T>(value: string): T | null {
  if (value.length === 0 || value.length > 20_000) return null;
  try {
    const parsed = JSON.parse(value) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as T) : null;
  } catch {
    return null;
  }
}
