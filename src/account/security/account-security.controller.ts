import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../common/clock';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { sendPage } from '../../web/page';
import { redirect } from '../../web/responses';
import { SessionService } from '../../web/session/session.service';
import { SELF_SERVICE_MESSAGES } from '../pages/self-service-messages';
import { AccountPages, CurrentAccount, SignedIn } from '../signed-in-page.guard';
import { AccountSecurityService } from './account-security.service';
import { securityPage } from './security-page';

/** How long after a change of password its notice is shown. */
const NOTICE_WINDOW_MS = 60_000;

/** `/account/security` (README.md, Your account): change password, change email. */
@Controller('account/security')
@AccountPages()
export class AccountSecurityController {
  constructor(
    private readonly security: AccountSecurityService,
    private readonly sessions: SessionService,
    private readonly events: SecurityEventsService,
    private readonly clock: Clock,
  ) {}

  @Get()
  async show(@CurrentAccount() account: SignedIn, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const changed = (request.query as Record<string, unknown> | undefined)?.changed === 'password' && (await this.justChangedPassword(account));
    const notice = changed ? SELF_SERVICE_MESSAGES[account.language].passwordChanged : undefined;
    sendPage(reply, securityPage(account, { email: account.user.email, mailOff: !this.security.mailEnabled, notice }));
  }

  /** Ends the account's other sessions; this browser gets a new one and sees the notice. */
  @Post('password')
  @HttpCode(200)
  async changePassword(@CurrentAccount() account: SignedIn, @Res() reply: FastifyReply): Promise<void> {
    const outcome = await this.security.changePassword(account.user, account.form, account.ip, account.language);
    if (!outcome.ok) return sendPage(reply, securityPage(account, { email: account.user.email, mailOff: !this.security.mailEnabled, password: { problem: outcome.problem } }));
    await this.sessions.signIn(reply, account.user.id, account.session);
    redirect(reply, '/account/security?changed=password', 303);
  }

  /** Sends the link to the new address; nothing changes until its button is pressed. */
  @Post('email')
  @HttpCode(200)
  async changeEmail(@CurrentAccount() account: SignedIn, @Res() reply: FastifyReply): Promise<void> {
    const t = SELF_SERVICE_MESSAGES[account.language];
    const mailOff = !this.security.mailEnabled;
    if (mailOff) return sendPage(reply, securityPage(account, { email: account.user.email, mailOff }));
    const outcome = await this.security.requestEmailChange(account.user, account.form, account.ip, account.language);
    const typed = typeof account.form.new_email === 'string' ? account.form.new_email : '';
    if (!outcome.ok) return sendPage(reply, securityPage(account, { email: account.user.email, mailOff, changeEmail: { problem: outcome.problem, newEmail: typed } }));
    sendPage(reply, securityPage(account, { email: account.user.email, mailOff, changeEmail: { sent: t.emailLinkSent(outcome.newEmail) } }));
  }

  private async justChangedPassword(account: SignedIn): Promise<boolean> {
    const [latest] = await this.events.recent(account.user.id, 1);
    return latest?.type === 'password_changed' && this.clock.now() - latest.at < NOTICE_WINDOW_MS;
  }
}
