import { Controller, Get, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PageBody } from '../web/forms/page-body.decorator';
import { ButtonForm } from '../web/forms/page-form.dto';
import { redirect } from '../web/responses';
import { sendPage } from '../web/page';
import { SessionService } from '../web/session/session.service';
import { SecurityEventsService } from '../security-events/security-events.service';
import { accountOverviewPage } from '../web/pages/account/account-page';
import { AccountPages, CurrentAccount, SignedIn } from './signed-in-page.guard';

/** `/account` (README.md, Your account): the signed-in user, Sign out, and the account's recent security events. */
@Controller('account')
@AccountPages()
export class AccountController {
  constructor(
    private readonly events: SecurityEventsService,
    private readonly sessions: SessionService,
  ) {}

  @Get()
  async show(@CurrentAccount() account: SignedIn, @Res() reply: FastifyReply): Promise<void> {
    const events = await this.events.recent(account.user.id);
    sendPage(reply, accountOverviewPage(account, { name: account.user.name, email: account.user.email, events }));
  }

  /** Ends the session on every instance; the next account page asks for a sign-in again. */
  @Post('sign-out')
  async signOut(@CurrentAccount() account: SignedIn, @PageBody(ButtonForm) _form: ButtonForm, @Res() reply: FastifyReply): Promise<void> {
    await this.events.record({ userId: account.user.id, type: 'sign_out', ip: account.ip });
    await this.sessions.signOut(account.session, reply);
    redirect(reply, '/oauth/sign-in?return_to=%2Faccount', 303);
  }
}
