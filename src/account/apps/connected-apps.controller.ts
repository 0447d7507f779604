import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { redirect } from '../../web/responses';
import { Clock } from '../../common/clock';
import { sendPage } from '../../web/page';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { ForbiddenPageError } from '../../web/account-errors';
import { connectedAppsPage } from '../../web/pages/account/connected-apps-page';
import { AccountPages, CurrentAccount, SignedIn } from '../signed-in-page.guard';
import { ConnectedAppsService } from './connected-apps.service';
import { queryField } from '../../web/forms/form';
import { PageBody } from '../../web/forms/page-body.decorator';
import { RevokeAppForm } from './revoke-app.form';

/** `/account/apps` (README.md, Your account): Connected apps and Revoke access. */
@Controller('account/apps')
@AccountPages()
export class ConnectedAppsController {
  constructor(
    private readonly apps: ConnectedAppsService,
    private readonly events: SecurityEventsService,
    private readonly clock: Clock,
  ) {}

  @Get()
  async show(@CurrentAccount() account: SignedIn, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const [apps, revoked] = await Promise.all([this.apps.list(account.user.id), this.justRevoked(account, request)]);
    sendPage(reply, connectedAppsPage(account, { apps, revoked }));
  }

  /** Revoke access: only an application the user granted; anything else changes nothing (403 page). */
  @Post('revoke')
  async revoke(@CurrentAccount() account: SignedIn, @PageBody(RevokeAppForm) form: RevokeAppForm, @Res() reply: FastifyReply): Promise<void> {
    const clientId = form.client_id;
    const app = clientId !== undefined && clientId.length <= 255 ? await this.apps.revoke(account.user.id, clientId, account.ip) : null;
    if (!app) throw new ForbiddenPageError('not_owned');
    redirect(reply, `/account/apps?revoked=${encodeURIComponent(app.clientId)}`, 303);
  }

  /**
   * The application named in the notice after Revoke access (`?revoked=<client_id>`): only when this
   * user's latest event is that revocation, a moment ago, so a crafted link cannot make the page claim a
   * revocation that did not happen. Its name comes from the event, never from the URL.
   */
  private async justRevoked(account: SignedIn, request: FastifyRequest): Promise<string | undefined> {
    const clientId = queryField(request, 'revoked');
    if (clientId === undefined) return undefined;
    const [latest] = await this.events.recent(account.user.id, 1);
    const fresh = latest?.type === 'access_revoked' && latest.details.clientId === clientId && this.clock.now() - latest.at < NOTICE_WINDOW_MS;
    return fresh ? latest.details.client : undefined;
  }
}

/** How long after Revoke access its notice is shown (a reload of the page a minute later shows none). */
const NOTICE_WINDOW_MS = 60_000;
