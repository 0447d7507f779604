import { Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { sendPage } from '../../web/page';
import { SessionService } from '../../web/session/session.service';
import { accountPage, AccountPageContext } from '../../web/pages/account/account-layout';
import { SELF_SERVICE_MESSAGES } from '../../web/pages/account/self-service-messages';
import { AccountPages, CurrentAccount, SignedIn } from '../signed-in-page.guard';
import { accountDeletedPage } from '../../web/pages/account/self-service-pages';
import { AccountDataService } from './account-data.service';
import { SecurityProblem } from '../security/account-security.service';
import { RecentProof } from '../security/recent-proof.guard';
import { PageBody } from '../../web/forms/page-body.decorator';
import { ButtonForm } from '../../web/forms/page-form.dto';
import { DeleteAccountForm } from './delete-account.form';

/** `/account/data` (README.md, Your account): Download my data, Delete account. */
@Controller('account/data')
@AccountPages()
export class AccountDataController {
  constructor(
    private readonly data: AccountDataService,
    private readonly sessions: SessionService,
  ) {}

  @Get()
  show(@CurrentAccount() account: SignedIn, @Res() reply: FastifyReply): void {
    sendPage(reply, dataPage(account));
  }

  /** The JSON file, as an attachment (the page's button posts here; a GET works too, for a link). */
  @Get('download')
  async downloadLink(@CurrentAccount() account: SignedIn, @Res() reply: FastifyReply): Promise<void> {
    await this.sendExport(account, reply);
  }

  @Post('download')
  @HttpCode(200)
  async download(@CurrentAccount() account: SignedIn, @PageBody(ButtonForm) _form: ButtonForm, @Res() reply: FastifyReply): Promise<void> {
    await this.sendExport(account, reply);
  }

  @Post('delete')
  @RecentProof('/account/data')
  @HttpCode(200)
  async delete(@CurrentAccount() account: SignedIn, @PageBody(DeleteAccountForm) form: DeleteAccountForm, @Res() reply: FastifyReply): Promise<void> {
    const outcome = await this.data.delete(account.user, form, account.ip);
    if (!outcome.ok) return sendPage(reply, dataPage(account, outcome.problem));
    await this.sessions.signOut(account.session, reply);
    sendPage(reply, accountDeletedPage(account.language));
  }

  private async sendExport(account: SignedIn, reply: FastifyReply): Promise<void> {
    const body = JSON.stringify(await this.data.export(account.user), null, 2);
    void reply
      .status(200)
      .headers({
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="account-data-${account.user.id}.json"`,
        'cache-control': 'no-store',
        pragma: 'no-cache',
        'x-content-type-options': 'nosniff',
      })
      .send(body);
  }
}

function dataPage(ctx: AccountPageContext, problem?: SecurityProblem | { kind: 'unconfirmed' }) {
  const t = SELF_SERVICE_MESSAGES[ctx.language];
  const words =
    problem === undefined ? undefined : problem.kind === 'unconfirmed' ? t.deleteUnconfirmed : problem.kind === 'wrong_password' ? t.wrongPassword : problem.kind === 'throttled' ? t.throttled : undefined;
  const page = accountPage(ctx, { section: 'data', title: t.dataTitle, view: 'account/data', data: { t, problem: words }, status: problem === undefined ? 200 : problem.kind === 'throttled' ? 429 : 400 });
  return problem?.kind === 'throttled' ? { ...page, headers: { 'retry-after': String(problem.retryAfterSeconds) } } : page;
}
