import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenPageError } from '../web/account-errors';
import { AccountPages, CurrentAccount, SignedIn } from '../account/signed-in-page.guard';
import { ApiKey } from '../api-keys/api-key.entity';
import { Client } from '../clients/client.entity';
import { redirect } from '../web/responses';
import { sendPage } from '../web/page';
import { Actor, DeveloperInputError, DeveloperLimitError, DeveloperService, NotOwnedError } from './developer.service';
import { DEVELOPER_MESSAGES, DONE_NOTICES, DoneNotice } from '../web/pages/developer/developer-messages';
import { DEVELOPER_PATH } from '../web/paths';
import { developerPage, Problem, RefusableForm, Shown } from '../web/pages/developer/developer-page';
import { HeldCredential, ShownOnceService } from './shown-once.service';
import { PageBody, REPEATED_AS_MISSING } from '../web/forms/page-body.decorator';
import { ButtonForm } from '../web/forms/page-form.dto';
import { CreateApiKeyForm, EditApplicationForm, RegisterApplicationForm } from './developer.form';
import { queryField } from '../web/forms/form';

/**
 * `/account/developer` (README.md, Register your application): the developer portal. Every change is a POST form checked by
 * SignedInPageGuard (same site, CSRF token, signed in). Every change that succeeds redirects back (303),
 * so a reload repeats nothing: one that made a secret has it shown once by the page it redirects to
 * (ShownOnceService), the others carry a notice. A refused form is shown again with its values and the
 * reason, and nothing is changed.
 */
@Controller('account/developer')
@AccountPages()
export class DeveloperController {
  constructor(
    private readonly developer: DeveloperService,
    private readonly shownOnce: ShownOnceService,
  ) {}

  @Get()
  async show(@CurrentAccount() account: SignedIn, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const done = queryField(request, 'done');
    const held = this.shownOnce.take(request, reply, account.session) ?? undefined;
    await this.render(account, reply, { done: DONE_NOTICES.includes(done as DoneNotice) ? (done as DoneNotice) : undefined, held });
  }

  @Post('applications')
  async register(@CurrentAccount() account: SignedIn, @PageBody(RegisterApplicationForm, REPEATED_AS_MISSING) form: RegisterApplicationForm, @Res() reply: FastifyReply): Promise<void> {
    const values = { name: form.name ?? '', redirectUris: form.redirect_uris ?? '', type: form.client_type ?? '', scopes: list(form.scope), deviceFlow: form.device_flow !== undefined };
    await this.attempt(account, reply, { form: 'register', values }, async () => {
      const { client, secret } = await this.developer.registerApplication(actor(account), { ...values, redirectUris: lines(values.redirectUris) });
      return { kind: 'client', clientId: client.clientId, secret, rotated: false };
    });
  }

  @Post('applications/:clientId/rotate-secret')
  async rotateSecret(@CurrentAccount() account: SignedIn, @Param('clientId') clientId: string, @PageBody(ButtonForm) _form: ButtonForm, @Res() reply: FastifyReply): Promise<void> {
    await this.attempt(account, reply, undefined, async () => {
      const { client, secret } = await this.developer.rotateSecret(actor(account), clientId);
      return { kind: 'client', clientId: client.clientId, secret, rotated: true };
    });
  }

  @Post('applications/:clientId/edit')
  async edit(@CurrentAccount() account: SignedIn, @Param('clientId') clientId: string, @PageBody(EditApplicationForm, REPEATED_AS_MISSING) form: EditApplicationForm, @Res() reply: FastifyReply): Promise<void> {
    const values = { name: form.name ?? '', redirectUris: form.redirect_uris ?? '' };
    await this.attempt(account, reply, { form: 'edit', clientId, values }, async () => {
      await this.developer.editApplication(actor(account), clientId, { name: values.name, redirectUris: lines(values.redirectUris) });
      return 'client_updated';
    });
  }

  @Post('applications/:clientId/delete')
  async delete(@CurrentAccount() account: SignedIn, @Param('clientId') clientId: string, @PageBody(ButtonForm) _form: ButtonForm, @Res() reply: FastifyReply): Promise<void> {
    await this.attempt(account, reply, undefined, async () => {
      await this.developer.deleteApplication(actor(account), clientId);
      return 'client_deleted';
    });
  }

  @Post('api-keys')
  async createApiKey(@CurrentAccount() account: SignedIn, @PageBody(CreateApiKeyForm, REPEATED_AS_MISSING) form: CreateApiKeyForm, @Res() reply: FastifyReply): Promise<void> {
    const values = { name: form.name ?? '' };
    await this.attempt(account, reply, { form: 'api_key', values }, async () => {
      const { apiKey, key } = await this.developer.createApiKey(actor(account), values.name);
      return { kind: 'api_key', apiKeyId: apiKey.id, key };
    });
  }

  @Post('api-keys/:id/revoke')
  async revokeApiKey(@CurrentAccount() account: SignedIn, @Param('id') id: string, @PageBody(ButtonForm) _form: ButtonForm, @Res() reply: FastifyReply): Promise<void> {
    await this.attempt(account, reply, undefined, async () => {
      await this.developer.revokeApiKey(actor(account), /^[1-9]\d{0,14}$/.test(id) ? Number(id) : 0);
      return 'api_key_revoked';
    });
  }

  /**
   * Runs one change and redirects back (303): with its notice, or with what it made held for the page
   * to show once. Not the user's: the 403 page. A refused value or a limit: the page again, with the
   * reason beside the form (400 / 409).
   */
  private async attempt(account: SignedIn, reply: FastifyReply, problemOf: RefusableForm | undefined, change: () => Promise<HeldCredential | DoneNotice>): Promise<void> {
    const t = DEVELOPER_MESSAGES[account.language];
    let outcome: HeldCredential | DoneNotice;
    try {
      outcome = await change();
    } catch (error) {
      if (error instanceof NotOwnedError) throw new ForbiddenPageError('not_owned');
      let message: string;
      let status: number;
      if (error instanceof DeveloperInputError) [message, status] = [error.canonical === undefined ? t.rules[error.rule] : `${t.rules[error.rule]} ${t.writeAs(error.canonical)}`, 400];
      else if (error instanceof DeveloperLimitError) [message, status] = [error.kind === 'clients' ? t.limitClients(error.limit) : t.limitApiKeys(error.limit), 409];
      else throw error;
      await this.render(account, reply, { problem: { ...(problemOf ?? { form: 'page' }), message } as Problem, status });
      return;
    }
    if (typeof outcome === 'string') return redirect(reply, `${DEVELOPER_PATH}?done=${outcome}`, 303);
    this.shownOnce.hold(reply, account.session, outcome);
    redirect(reply, `${DEVELOPER_PATH}#shown-title`, 303);
  }

  private async render(
    account: SignedIn,
    reply: FastifyReply,
    { held, ...extra }: { done?: DoneNotice; held?: HeldCredential; problem?: Problem; status?: number },
  ): Promise<void> {
    const [applications, apiKeys] = await Promise.all([this.developer.applications(account.user.id), this.developer.apiKeysOf(account.user.id)]);
    const shown = held && shownFrom(held, applications, apiKeys);
    sendPage(reply, developerPage(account, { applications, apiKeys, maxClients: this.developer.maxClients, maxApiKeys: this.developer.maxApiKeys, shown, ...extra }));
  }
}

/**
 * What a held credential belongs to, among the user's own applications and keys: one deleted or revoked
 * since (in another tab) is not shown, and one of another user cannot be, since only the user's are searched.
 */
function shownFrom(held: HeldCredential, applications: Client[], apiKeys: ApiKey[]): Shown | undefined {
  if (held.kind === 'client') {
    const client = applications.find((c) => c.clientId === held.clientId);
    return client && { kind: 'client', client, secret: held.secret, rotated: held.rotated };
  }
  const apiKey = apiKeys.find((k) => k.id === held.apiKeyId && k.revokedAt === null);
  return apiKey && { kind: 'api_key', apiKey, key: held.key };
}

function actor(account: SignedIn): Actor {
  return { userId: account.user.id, ip: account.ip };
}


/** A field that may repeat (checkboxes). */
function list(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}

/** The textarea of redirect URIs: one a line, blank lines and surrounding spaces ignored. */
function lines(value: string): string[] {
  return value
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
