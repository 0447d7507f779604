import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/clock';
import { authConfig } from '../../config/configuration';
import { PasskeysService } from '../../passkeys/passkeys.service';
import { SecondFactorService } from '../../second-factor/second-factor.service';
import { SecurityEventsService } from '../../security-events/security-events.service';
import type { ConfirmAccessProblem } from './account-security.outcomes';
import { Session, SessionService } from '../../web/session/session.service';
import { AccountSecurityService } from './account-security.service';
import type { SignedIn } from '../signed-in-page.guard';
import { ConfirmAccessForm } from './confirm-access.form';

export type ProofOutcome = { ok: true } | { ok: false; problem: ConfirmAccessProblem; retryAfterSeconds?: number };

/**
 * "Sudo mode" (SECURITY.md, "A borrowed session adding a way in"; OWASP ASVS 5.0 V7.5): a change of how
 * an account signs in needs a proof of who is at the keyboard given within REAUTH_MAX_AGE seconds, so a
 * session left open on a shared computer cannot add its borrower's passkey or authenticator. The
 * session's sign-in counts as a proof at its instant; the confirm-access page takes a new one: the
 * password (checked and throttled as a sign-in is), a passkey of this account that verified its user,
 * or a current code of the authenticator app.
 */
@Injectable()
export class RecentProofService {
  constructor(
    private readonly sessions: SessionService,
    private readonly passkeys: PasskeysService,
    private readonly secondFactor: SecondFactorService,
    private readonly security: AccountSecurityService,
    private readonly events: SecurityEventsService,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
    private readonly clock: Clock,
  ) {}

  /** Whether the session's latest proof is at most REAUTH_MAX_AGE old (exactly that old still counts). */
  isRecent(session: Session): boolean {
    return this.clock.now() - this.sessions.provenAt(session) <= this.auth.reauthMaxAgeSeconds * 1000;
  }

  /** What the confirm-access page offers this account: a code field when it has the app, and a passkey ceremony bound to the session. */
  async offers(account: SignedIn): Promise<{ code: boolean; passkeyOptions: string }> {
    const [code, passkeyOptions] = await Promise.all([this.secondFactor.required(account.user.id), this.passkeys.authenticationOptions(account.session)]);
    return { code, passkeyOptions };
  }

  /** Checks the posted proof: a passkey's assertion, else a code, else the password. Nothing is recorded on the session here. */
  async check(account: SignedIn, form: ConfirmAccessForm): Promise<ProofOutcome> {
    const { user } = account;
    const passkey = form.passkey ?? '';
    if (passkey) {
      const result = await this.passkeys.authenticate(account.session, passkey);
      // Another account's passkey proves nothing here; authenticate refuses one that did not verify its user.
      return result.ok && result.user.id === user.id ? { ok: true } : this.failed(account, 'passkey_refused');
    }
    const code = (form.code ?? '').replace(/\s/g, '');
    if (code) {
      // A current code of the app only: a recovery code is kept for a lost phone, not spent here.
      if (!/^\d{6}$/.test(code) || !(await this.secondFactor.required(user.id))) return this.failed(account, 'invalid_code');
      const check = await this.secondFactor.verify(user, code, account);
      if (check.ok) return { ok: true };
      return check.problem === 'throttled' ? { ok: false, problem: 'throttled', retryAfterSeconds: check.retryAfterSeconds } : this.failed(account, 'invalid_code');
    }
    // Counted on the sign-in throttle and recorded as a failed sign-in when wrong, as every password form is.
    const problem = await this.security.checkPassword(user, form.current_password, account.ip);
    if (problem === null) return { ok: true };
    return problem.kind === 'throttled' ? { ok: false, problem: 'throttled', retryAfterSeconds: problem.retryAfterSeconds } : { ok: false, problem: 'wrong_password' };
  }

  /** A refused passkey or code: a failed sign-in of the account (the password's are recorded by checkPassword). */
  private async failed(account: SignedIn, problem: 'passkey_refused' | 'invalid_code'): Promise<ProofOutcome> {
    await this.events.record({ userId: account.user.id, type: 'sign_in_failed', ip: account.ip, at: this.clock.now() });
    return { ok: false, problem };
  }
}
