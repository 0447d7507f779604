import { Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { safeReturnPath } from '../../web/forms/return-path';
import type { ConfirmAccessProblem } from './account-security.outcomes';
import { Page, sendPage } from '../../web/page';
import { confirmAccessPage } from '../../web/pages/account/confirm-access-page';
import { redirect } from '../../web/responses';
import { SessionService } from '../../web/session/session.service';
import { AccountPages, CurrentAccount, SignedIn } from '../signed-in-page.guard';
import { RecentProofService } from './recent-proof.service';
import { PageBody } from '../../web/forms/page-body.decorator';
import { ConfirmAccessForm } from './confirm-access.form';

/**
 * `/account/confirm-access` (SECURITY.md, "A borrowed session adding a way in"): a new proof of who is
 * signed in, then back to the page that asked for it (`return_to`, a path of the account pages only).
 */
@Controller('account/confirm-access')
@AccountPages()
export class ConfirmAccessController {
  constructor(
    private readonly proofs: RecentProofService,
    private readonly sessions: SessionService,
  ) {}

  @Get()
  async show(@CurrentAccount() account: SignedIn, @Query('return_to') returnTo: unknown, @Res() reply: FastifyReply): Promise<void> {
    sendPage(reply, await this.page(account, safeReturnPath(returnTo)));
  }

  @Post()
  @HttpCode(200)
  async confirm(@CurrentAccount() account: SignedIn, @PageBody(ConfirmAccessForm) form: ConfirmAccessForm, @Res() reply: FastifyReply): Promise<void> {
    const returnTo = safeReturnPath(form.return_to);
    const outcome = await this.proofs.check(account, form);
    if (!outcome.ok) return sendPage(reply, await this.page(account, returnTo, { problem: outcome.problem, retryAfterSeconds: outcome.retryAfterSeconds }));
    this.sessions.proved(reply, account.session);
    redirect(reply, returnTo, 303);
  }

  /** The confirm-access page for this account, returning to `returnTo` (a safe local path). */
  private async page(account: SignedIn, returnTo: string, extra: { problem?: ConfirmAccessProblem; retryAfterSeconds?: number } = {}): Promise<Page> {
    return confirmAccessPage(account, { returnTo, ...(await this.proofs.offers(account)), ...extra });
  }
}
