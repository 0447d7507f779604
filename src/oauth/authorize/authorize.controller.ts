import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiFoundResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/envelope.schemas';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { queryField } from '../../web/forms/form';
import { PageBody } from '../../web/forms/page-body.decorator';
import { SignInForm } from '../sign-in/sign-in.form';
import { ConsentForm } from './consent.form';
import { sendOutcome } from '../../web/responses';
import { PAGE_ERRORS } from '../../web/page-errors';
import { SignInService } from '../sign-in/sign-in.service';
import { AuthorizeService } from './authorize.service';
import { PageForm } from '../../web/forms/page-form.guard';
import { FormRefusedError } from './authorize.errors';
import { FlowContexts } from '../flow-context';

const HTML_PAGE = { 'text/html': { schema: { type: 'string', example: '<!doctype html>…' } } };

@ApiTags('oauth')
@Controller('oauth')
@SkipEnvelope({ errors: PAGE_ERRORS })
export class AuthorizeController {
  constructor(
    private readonly authorize: AuthorizeService,
    private readonly signIns: SignInService,
    private readonly contexts: FlowContexts,
  ) {}

  @Get('authorize')
  @Public()
  @ApiOperation({
    summary: 'Authorization endpoint (RFC 6749 §4.1.1)',
    description: [
      'Starts the authorization code flow with PKCE (S256). Opened in the user\'s browser, it shows a sign-in page, then a consent page',
      '(skipped when the user already allowed this client these scopes while it had this redirect URI, unless `prompt=consent`), then redirects to `redirect_uri`',
      'with `code`, `state` and `iss` (RFC 9207).',
      '',
      'An unknown `client_id` or a `redirect_uri` that is not exactly one of the client\'s registered URIs is answered with an HTML',
      'error page (status 400) and no redirect. Any other problem redirects to `redirect_uri` with `error` (`invalid_request`,',
      '`unsupported_response_type`, `invalid_scope`, `access_denied`, `login_required`, `consent_required`), `error_description`,',
      '`state` and `iss`. A repeated parameter is `invalid_request`. Without `scope` the client\'s registered scopes are requested.',
      'A `client_id` that is an https URL names the client\'s metadata document, fetched by this server (docs/integrate-with-oauth.md,',
      '"Clients identified by a URL"); a document that cannot be fetched or used is an HTML error page (400) that says why, no redirect.',
      '',
      'With `response_mode=form_post` the response (success or error) is not a redirect but a page (200) that posts those fields to',
      '`redirect_uri` as a form, by itself or with its button when scripts are off. With `request_uri` (RFC 9126) the request is the',
      'one the client pushed to `/oauth/par`: only `client_id` and `request_uri` are read; an unknown, expired, used or other',
      'client\'s `request_uri` is an HTML error page (400), no redirect. An application registered with `--require-par` is refused',
      'a plain request (`invalid_request`).',
    ].join(' '),
  })
  @ApiQuery({
    name: 'request_uri',
    required: false,
    example: 'urn:ietf:params:oauth:request_uri:EXAMPLE',
    description: 'RFC 9126: the `request_uri` returned by `/oauth/par` to this client; then every parameter but `client_id` is ignored.',
  })
  @ApiQuery({
    name: 'response_mode',
    required: false,
    enum: ['query', 'form_post'],
    description: '`query` (the default): a redirect. `form_post`: a page that posts the response to `redirect_uri`.',
  })
  @ApiQuery({ name: 'response_type', required: true, enum: ['code'], description: 'Always `code` (RFC 6749 §4.1.1).' })
  @ApiQuery({ name: 'client_id', required: true, example: 'api-reference', description: 'The client_id given at registration, or the https URL of the client\'s metadata document.' })
  @ApiQuery({
    name: 'redirect_uri',
    required: true,
    example: 'http://localhost:8080/callback',
    description: 'Exactly (string equality) one of the client\'s registered redirect URIs.',
  })
  @ApiQuery({ name: 'scope', required: false, example: 'profile read:startups', description: 'Space-separated; defaults to the client\'s registered scopes.' })
  @ApiQuery({ name: 'state', required: false, example: 'af0ifjsldkj', description: 'Opaque value returned unchanged in the redirect; use it against CSRF.' })
  @ApiQuery({
    name: 'code_challenge',
    required: false,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', example: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' },
    description: 'BASE64URL(SHA-256(code_verifier)) (RFC 7636 §4.2); required for public clients.',
  })
  @ApiQuery({ name: 'code_challenge_method', required: false, enum: ['S256'], description: 'Only `S256`; required with `code_challenge`.' })
  @ApiQuery({
    name: 'prompt',
    required: false,
    enum: ['login', 'consent', 'none'],
    description: '`login`: sign in again; `consent`: ask again even if allowed before; `none`: no page at all (`login_required` / `consent_required` if one would be needed).',
  })
  @ApiQuery({ name: 'nonce', required: false, example: 'n-0S6_WzA2Mj', description: 'OpenID Connect: 1 to 512 characters, returned as the `nonce` claim of the ID token.' })
  @ApiQuery({
    name: 'max_age',
    required: false,
    schema: { type: 'integer', minimum: 0, example: 3600 },
    description: 'OpenID Connect: a sign-in older than this many seconds is asked again (`0`: always, once); the ID token states `auth_time`.',
  })
  @ApiQuery({ name: 'login_hint', required: false, example: 'ayse@example.com', description: 'OpenID Connect: pre-fills the email on the sign-in page (at most 254 characters).' })
  @ApiQuery({
    name: 'acr_values',
    required: false,
    example: 'urn:startup-platform:acr:mfa',
    description: 'OpenID Connect: `urn:startup-platform:acr:mfa` asks for a sign-in with a second factor (discovery\'s `acr_values_supported`); other values are ignored. At most 512 characters.',
  })
  @ApiQuery({ name: 'resource', required: false, schema: { type: 'string', format: 'uri', example: 'https://api.example.com/mcp' }, description: 'RFC 8707: the resource the tokens are for, `{PUBLIC_URL}/api/public/v1` (the default) or `{PUBLIC_URL}/mcp`; anything else is `invalid_target`, by redirect.' })
  @ApiProduces('text/html')
  @ApiResponse({
    status: 200,
    description: 'The sign-in or consent page (HTML); with `response_mode=form_post`, the page that posts the response to `redirect_uri`.',
    content: HTML_PAGE,
  })
  @ApiFoundResponse({
    description: 'Back to `redirect_uri` with `code`, `state`, `iss` — or with `error`, `error_description`, `state`, `iss`.',
    headers: {
      Location: {
        description: 'The redirect URI with the authorization response in its query (RFC 6749 §4.1.2, RFC 9207).',
        schema: { type: 'string', example: 'http://localhost:8080/callback?code=sp_ac_EXAMPLE&state=af0ifjsldkj&iss=http%3A%2F%2Flocalhost%3A3000' },
      },
    },
  })
  @ApiResponse({
    status: 400,
    description:
      'Unknown client, unregistered redirect URI, or a `request_uri` that is unknown, expired, used or another client\'s: an HTML error page, no redirect (RFC 6749 §4.1.2.1). Also a request ' +
      'that cannot be parsed at all.',
    content: HTML_PAGE,
  })
  @ApiResponse({ status: 500, description: 'Something unexpected: an HTML error page.', content: HTML_PAGE })
  @ApiResponse({ status: 503, description: 'The database is unreachable or the instance is shutting down: an HTML error page.', content: HTML_PAGE })
  // Lowest, so applied first: the HTML pages above replace its 400, 500 and 503; its 431 stays JSON, as
  // Node answers an oversized request before the path is known to be a page.
  @ApiErrors()
  async start(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    sendOutcome(reply, await this.authorize.begin(rawQuery, await this.contexts.of(request, reply)));
  }

  /** The sign-in page an account page sends an anonymous visitor to (README.md, Your account), `return_to` the page asked for. */
  @Get('sign-in')
  @Public()
  @ApiExcludeEndpoint()
  async signInPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // `done=password_reset`: sent here by the reset link's page, which says so above the form (fixed words only).
    const notice = queryField(request, 'done') === 'password_reset' ? 'password_reset' : undefined;
    sendOutcome(reply, await this.signIns.page(queryField(request, 'return_to'), await this.contexts.of(request, reply), notice));
  }

  /** The sign-in form: of a pending authorization request (`transaction`), or of an account page (`return_to`). */
  @Post('sign-in')
  @HttpCode(200)
  @Public()
  @PageForm((problem) => new FormRefusedError(problem))
  @ApiExcludeEndpoint()
  async signIn(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageBody(SignInForm) form: SignInForm): Promise<void> {
    const context = await this.contexts.of(request, reply);
    sendOutcome(reply, form.transaction === undefined && form.return_to !== undefined ? await this.signIns.submit(form, context) : await this.authorize.signIn(form, context));
  }

  @Post('consent')
  @HttpCode(200)
  @Public()
  @PageForm((problem) => new FormRefusedError(problem))
  @ApiExcludeEndpoint()
  async consent(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @PageBody(ConsentForm) form: ConsentForm): Promise<void> {
    sendOutcome(reply, await this.authorize.decide(form, await this.contexts.of(request, reply)));
  }
}
