import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../common/clock';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { SessionService } from '../../web/session/session.service';
import { SELF_SERVICE_MESSAGES } from '../../web/pages/account/self-service-messages';
import type { AccountSectionsInput } from '../../web/pages/account/account-security-sections';
import { AccountSecurityService } from './account-security.service';
import { PasskeysService } from '../../passkeys/passkeys.service';
import { SecondFactorService } from '../../second-factor/second-factor.service';
import { sendPage } from '../../web/page';
import { redirect } from '../../web/responses';
import { AccountPages, CurrentAccount, SignedIn } from '../signed-in-page.guard';
import { RecoveryCodesShownOnce } from './recovery-codes-shown-once';
import { SECURITY_MESSAGES, SECURITY_NOTICES, SecurityNotice } from '../../web/pages/account/security-messages';
import { SECURITY_PATH, securityPage, SecurityProblem } from '../../web/pages/account/security-page';
import { ForbiddenPageError } from '../../web/account-errors';
import { RecentProof } from './recent-proof.guard';
import { RecentProofService } from './recent-proof.service';
import { PageBody } from '../../web/forms/page-body.decorator';
import { ButtonForm } from '../../web/forms/page-form.dto';
import { AddPasskeyForm, ChangeEmailForm, ChangePasswordForm, ConfirmAuthenticatorForm, ProofForm, RenamePasskeyForm } from './security.form';
import { queryField } from '../../web/forms/form';

/** How long after a change of password its notice is shown. */
const NOTICE_WINDOW_MS = 60_000;

/**
 * `/account/security` (README.md, Your account; docs/second-factor.md): the password, the address,
 * passkeys and the authenticator app. Every change is a POST form checked by SignedInPageGuard; a refused
 * one shows the page again with the reason, and changes nothing.
 */
@Controller('account/security')
@AccountPages()
export class SecurityController {
  constructor(
    private readonly secondFactor: SecondFactorService,
    private readonly shownOnce: RecoveryCodesShownOnce,
    private readonly passkeys: PasskeysService,
    private readonly security: AccountSecurityService,
    private readonly sessions: SessionService,
    private readonly events: SecurityEventsService,
    private readonly proofs: RecentProofService,
    private readonly clock: Clock,
  ) {}

  /** **Change password**: ends the account's other sessions; this browser gets a new one and sees the notice. */
  @Post('password')
  @RecentProof(SECURITY_PATH)
  @HttpCode(200)
  async changePassword(@CurrentAccount() account: SignedIn, @PageBody(ChangePasswordForm) form: ChangePasswordForm, @Res() reply: FastifyReply): Promise<void> {
    const outcome = await this.security.changePassword(account.user, form, account.ip, account.language);
    if (!outcome.ok) return this.render(account, reply, {}, { password: { problem: outcome.problem } });
    await this.sessions.signIn(reply, account.user.id, account.session.amr ?? ['pwd'], account.session);
    redirect(reply, `${SECURITY_PATH}?changed=password`, 303);
  }

  /**
   * **Change email**: sends the link to the new address; nothing changes until its button is pressed. An
   * accepted form is redirected (303) to the page's GET with its notice, so a reload sends no second mail.
   */
  @Post('email')
  @RecentProof(SECURITY_PATH)
  @HttpCode(200)
  async changeEmail(@CurrentAccount() account: SignedIn, @PageBody(ChangeEmailForm) form: ChangeEmailForm, @Res() reply: FastifyReply): Promise<void> {
    if (!this.security.mailEnabled) return this.render(account, reply, {});
    const outcome = await this.security.requestEmailChange(account.user, form, account.ip, account.language);
    const typed = form.new_email ?? '';
    if (!outcome.ok) return this.render(account, reply, {}, { changeEmail: { problem: outcome.problem, newEmail: typed } });
    redirect(reply, `${SECURITY_PATH}?done=email_link_sent`, 303);
  }

  /** **Add a passkey**: the credential the page's script made (with the options of this session), and its name. */
  @Post('passkeys')
  @RecentProof(SECURITY_PATH)
  async addPasskey(@CurrentAccount() account: SignedIn, @PageBody(AddPasskeyForm) form: AddPasskeyForm, @Res() reply: FastifyReply): Promise<void> {
    const t = SECURITY_MESSAGES[account.language];
    const result = await this.passkeys.register(account.user, account.session, form.credential ?? '', form.name ?? '', account);
    if (result.ok) return redirect(reply, `${SECURITY_PATH}?done=passkey_added`, 303);
    const message = result.problem === 'invalid_name' ? t.passkeyNameRule : result.problem === 'unverified' ? t.passkeyUnverified : t.passkeyRefused;
    return this.render(account, reply, { problem: { form: 'passkey_add', message }, status: 400 });
  }

  @Post('passkeys/:id/rename')
  async renamePasskey(@CurrentAccount() account: SignedIn, @PageBody(RenamePasskeyForm) form: RenamePasskeyForm, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const result = await this.passkeys.rename(account.user, id, form.name ?? '');
    if (result.ok) return redirect(reply, `${SECURITY_PATH}?done=passkey_renamed`, 303);
    if (result.problem === 'not_owned') throw new ForbiddenPageError('not_owned');
    return this.render(account, reply, { problem: { form: 'passkey_rename', passkeyId: id, message: SECURITY_MESSAGES[account.language].passkeyNameRule }, status: 400 });
  }

  /** **Remove**; the last passkey needs the password or a current code. */
  @Post('passkeys/:id/remove')
  @RecentProof(SECURITY_PATH)
  async removePasskey(@CurrentAccount() account: SignedIn, @PageBody(ProofForm) form: ProofForm, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const t = SECURITY_MESSAGES[account.language];
    const proof = { code: form.code?.trim() || undefined, password: form.password || undefined };
    const result = await this.passkeys.remove(account.user, id, proof, account);
    if (result.ok) return redirect(reply, `${SECURITY_PATH}?done=passkey_removed`, 303);
    if (result.problem === 'not_owned') throw new ForbiddenPageError('not_owned');
    if (result.problem === 'throttled') {
      reply.header('retry-after', String(result.retryAfterSeconds ?? 1));
      return this.render(account, reply, { problem: { form: 'passkey_remove', passkeyId: id, message: t.throttled }, status: 429 });
    }
    return this.render(account, reply, { problem: { form: 'passkey_remove', passkeyId: id, message: t.passkeyProofNeeded }, status: 400 });
  }

  @Get()
  async show(@CurrentAccount() account: SignedIn, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const done = queryField(request, 'done');
    const recoveryCodes = this.shownOnce.take(request, reply, account.session);
    const changed = queryField(request, 'changed') === 'password' && (await this.justChangedPassword(account));
    const notice = changed ? SELF_SERVICE_MESSAGES[account.language].passwordChanged : undefined;
    await this.render(account, reply, { recoveryCodes, done: SECURITY_NOTICES.includes(done as SecurityNotice) ? (done as SecurityNotice) : undefined }, { notice });
  }

  /** **Set up an authenticator app**: a new secret, shown on the page until a code confirms it. */
  @Post('authenticator')
  @RecentProof(SECURITY_PATH)
  async setUp(@CurrentAccount() account: SignedIn, @PageBody(ButtonForm) _form: ButtonForm, @Res() reply: FastifyReply): Promise<void> {
    await this.secondFactor.startSetup(account.user);
    redirect(reply, `${SECURITY_PATH}#authenticator`, 303);
  }

  /** The first code confirms the setup; the recovery codes are shown once by the page redirected to. */
  @Post('authenticator/confirm')
  @RecentProof(SECURITY_PATH)
  async confirm(@CurrentAccount() account: SignedIn, @PageBody(ConfirmAuthenticatorForm) form: ConfirmAuthenticatorForm, @Res() reply: FastifyReply): Promise<void> {
    const t = SECURITY_MESSAGES[account.language];
    const result = await this.secondFactor.confirm(account.user, form.code ?? '', account);
    if (!result.ok) {
      const message = result.problem === 'invalid_code' ? t.invalidCode : t.notPending;
      return this.render(account, reply, { problem: { form: 'confirm', message }, status: result.problem === 'invalid_code' ? 400 : 409 });
    }
    this.shownOnce.hold(reply, account.session, result.recoveryCodes);
    redirect(reply, `${SECURITY_PATH}#recovery-title`, 303);
  }

  /** **New recovery codes**: the earlier ones stop working; the new ones are shown once by the page redirected to. */
  @Post('authenticator/recovery-codes')
  @RecentProof(SECURITY_PATH)
  async renewRecoveryCodes(@CurrentAccount() account: SignedIn, @PageBody(ButtonForm) _form: ButtonForm, @Res() reply: FastifyReply): Promise<void> {
    const result = await this.secondFactor.renewRecoveryCodes(account.user, account);
    if (!result.ok) return this.render(account, reply, { problem: { form: 'recovery_codes', message: SECURITY_MESSAGES[account.language].notOn }, status: 409 });
    this.shownOnce.hold(reply, account.session, result.recoveryCodes);
    redirect(reply, `${SECURITY_PATH}#recovery-title`, 303);
  }

  /** Turns the authenticator off (or cancels its setup): a current code or the password. */
  @Post('authenticator/off')
  @RecentProof(SECURITY_PATH)
  async turnOff(@CurrentAccount() account: SignedIn, @PageBody(ProofForm) form: ProofForm, @Res() reply: FastifyReply): Promise<void> {
    const t = SECURITY_MESSAGES[account.language];
    const proof = { code: form.code?.trim() || undefined, password: form.password || undefined };
    const result = await this.secondFactor.turnOff(account.user, proof, account);
    if (result.ok) return redirect(reply, `${SECURITY_PATH}?done=authenticator_off`, 303);
    if (result.problem === 'throttled') {
      reply.header('retry-after', String(result.retryAfterSeconds));
      return this.render(account, reply, { problem: { form: 'turn_off', message: t.throttled }, status: 429 });
    }
    return this.render(account, reply, { problem: { form: 'turn_off', message: t.invalidProof }, status: 400 });
  }

  private async render(
    account: SignedIn,
    reply: FastifyReply,
    extra: { recoveryCodes?: string[]; done?: SecurityNotice; problem?: SecurityProblem; status?: number },
    sections: Omit<AccountSectionsInput, 'email' | 'mailOff'> = {},
  ): Promise<void> {
    // Without a recent proof the page starts no ceremony: no registration options, no secret of a pending setup.
    const recent = this.proofs.isRecent(account.session);
    const [authenticator, passkeys, registrationOptions] = await Promise.all([
      this.secondFactor.stateOf(account.user),
      this.passkeys.list(account.user.id),
      recent ? this.passkeys.registrationOptions(account.user, account.session) : undefined,
    ]);
    const accountSections = { email: account.user.email, mailOff: !this.security.mailEnabled, ...sections };
    sendPage(reply, securityPage(account, { authenticator, passkeys, registrationOptions, ...extra, account: accountSections }));
  }

  private async justChangedPassword(account: SignedIn): Promise<boolean> {
    const [latest] = await this.events.recent(account.user.id, 1);
    return latest?.type === 'password_changed' && this.clock.now() - latest.at < NOTICE_WINDOW_MS;
  }
}
