import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SecondFactorService } from '../../second-factor/second-factor.service';
import { sendPage } from '../../web/page';
import { redirect } from '../../web/responses';
import { AccountPages, CurrentAccount, SignedIn } from '../signed-in-page.guard';
import { RecoveryCodesShownOnce } from './recovery-codes-shown-once';
import { SECURITY_MESSAGES, SECURITY_NOTICES, SecurityNotice } from './security-messages';
import { AuthenticatorProblem, SECURITY_PATH, securityPage } from './security-page';

/**
 * `/account/security` (README.md, Your account; docs/second-factor.md): the authenticator app. Every
 * change is a POST form checked by SignedInPageGuard and answered with a 303 back (Post/Redirect/Get);
 * a refused one shows the page again with the reason, and changes nothing.
 */
@Controller('account/security')
@AccountPages()
export class SecurityController {
  constructor(
    private readonly secondFactor: SecondFactorService,
    private readonly shownOnce: RecoveryCodesShownOnce,
  ) {}

  @Get()
  async show(@CurrentAccount() account: SignedIn, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const done = (request.query as Record<string, unknown>).done;
    const recoveryCodes = this.shownOnce.take(request, reply, account.session);
    await this.render(account, reply, { recoveryCodes, done: SECURITY_NOTICES.includes(done as SecurityNotice) ? (done as SecurityNotice) : undefined });
  }

  /** **Set up an authenticator app**: a new secret, shown on the page until a code confirms it. */
  @Post('authenticator')
  async setUp(@CurrentAccount() account: SignedIn, @Res() reply: FastifyReply): Promise<void> {
    await this.secondFactor.startSetup(account.user);
    redirect(reply, `${SECURITY_PATH}#authenticator`, 303);
  }

  /** The first code confirms the setup; the recovery codes are shown once by the page redirected to. */
  @Post('authenticator/confirm')
  async confirm(@CurrentAccount() account: SignedIn, @Res() reply: FastifyReply): Promise<void> {
    const t = SECURITY_MESSAGES[account.language];
    const result = await this.secondFactor.confirm(account.user, text(account.form.code), account.ip);
    if (!result.ok) {
      const message = result.problem === 'invalid_code' ? t.invalidCode : t.notPending;
      return this.render(account, reply, { problem: { form: 'confirm', message }, status: result.problem === 'invalid_code' ? 400 : 409 });
    }
    this.shownOnce.hold(reply, account.session, result.recoveryCodes);
    redirect(reply, `${SECURITY_PATH}#recovery-title`, 303);
  }

  /** Turns the authenticator off (or cancels its setup): a current code or the password. */
  @Post('authenticator/off')
  async turnOff(@CurrentAccount() account: SignedIn, @Res() reply: FastifyReply): Promise<void> {
    const t = SECURITY_MESSAGES[account.language];
    const proof = { code: text(account.form.code).trim() || undefined, password: text(account.form.password) || undefined };
    const result = await this.secondFactor.turnOff(account.user, proof, account.ip);
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
    extra: { recoveryCodes?: string[]; done?: SecurityNotice; problem?: AuthenticatorProblem; status?: number },
  ): Promise<void> {
    sendPage(reply, securityPage(account, { authenticator: await this.secondFactor.stateOf(account.user), ...extra }));
  }
}

/** One form field as text; a repeated or missing one reads as empty. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
