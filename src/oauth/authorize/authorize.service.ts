import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Client } from '../../clients/client.entity';
import { Clock } from '../../common/clock';
import { MetadataFetchBudgets } from '../client-auth/metadata-fetch-budgets';
import { SecurityEventsService } from '../../security-events/security-events.service';
import { matchesRegisteredRedirectUri } from '../../clients/client-rules';
import { ClientsService } from '../../clients/clients.service';
import { ClientMetadataError } from '../../clients/metadata-documents/client-metadata';
import { INVALID_TARGET, OAuthError, repeatedParameterDescription } from '../../common/errors/oauth-error';
import { ProtectedResources } from '../../auth/protected-resources';
import { appConfig } from '../../config/configuration';
import { User } from '../../users/user.entity';
import { UsersService } from '../../users/users.service';
import { isValidS256Challenge } from '../pkce';
import { formatScope, isKnownScope, isSubset, parseRequestedScope, parseScope } from '../../common/scopes';
import { Session, SessionService, Transaction } from '../../web/session/session.service';
import { attemptOutcome, SignInService } from '../sign-in/sign-in.service';
import { AuthorizationCodesService } from './authorization-codes.service';
import { PushedRequestsService } from './pushed-requests.service';
import { parseQueryParameters, QueryParameters } from '../../common/http/query-parameters';
import { authorizationResponseUrl } from './authorization-response';
import { FlowOutcome, SignInOutcome } from '../../web/outcomes';
import { AuthorizationRedirectError, AuthorizationRequestPageError, FormRefusedError, HeldAuthorizationError } from './authorize.errors';
import { ConsentsService } from './consents.service';
import type { FlowContext } from '../flow-context';
import { meetsMfa, MFA_ACR } from '../acr';
import { SignInForm } from '../sign-in/sign-in.form';
import { ConsentForm } from './consent.form';

/** OIDC Core §3.1.2.1 `prompt` values this server honours. */
const PROMPTS = new Set(['none', 'login', 'consent']);

/**
 * The authorization endpoint and its pages (docs/integrate-with-oauth.md, RFC 6749 §4.1.1–§4.1.2): validates the
 * request in the contract's order, signs the user in, asks for (or remembers) consent and sends the
 * browser back to the client with a code or an error.
 */
@Injectable()
export class AuthorizeService {
  constructor(
    private readonly clients: ClientsService,
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    private readonly consents: ConsentsService,
    private readonly codes: AuthorizationCodesService,
    private readonly signIns: SignInService,
    private readonly events: SecurityEventsService,
    private readonly pushed: PushedRequestsService,
    private readonly resources: ProtectedResources,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    private readonly clock: Clock,
    private readonly fetchBudgets: MetadataFetchBudgets,
  ) {}

  /** `GET /oauth/authorize` */
  async begin(rawQuery: string, ctx: FlowContext): Promise<FlowOutcome> {
    try {
      return await this.start(rawQuery, ctx);
    } catch (error) {
      if (error instanceof AuthorizationRedirectError) throw await this.holdUnlessTrusted(error, ctx.session);
      throw error;
    }
  }

  /**
   * RFC 9700 §4.11.2: an error redirect needs no user action, so anyone who registers an application
   * could use this server to send people to their site with a link. For an unverified application the
   * error is held on a page (HeldAuthorizationError) unless the user had allowed that application
   * before. Every error of `begin` comes before any sign-in or consent in this flow; those after the
   * user acted (deny on the consent page) are redirected by `decide`.
   */
  private async holdUnlessTrusted(error: AuthorizationRedirectError, session: Session | null): Promise<Error> {
    const client = error.target.clientId === undefined ? null : await this.clients.findByClientId(error.target.clientId);
    if (!client || client.verified) return error;
    if (session?.uid !== undefined && (await this.consents.hasAny(session.uid, client.id, error.target.redirectUri))) return error;
    return new HeldAuthorizationError(error, client.name);
  }

  private async start(rawQuery: string, ctx: FlowContext): Promise<FlowOutcome> {
    const { client, transaction, prompts } = await this.validate(rawQuery, ctx.ip);
    // OIDC Core §3.1.2.1: prompt=login, or a sign-in older than max_age, asks for the password again.
    // The fresh sign-in then goes straight on (signIn below), so max_age=0 asks once, never in a loop.
    const fresh = !prompts.has('login') && isFreshEnough(ctx.session, transaction.maxAge, this.clock.now());
    const user = fresh ? await this.signedInUser(ctx.session) : null;

    if (prompts.has('none')) {
      // OIDC Core §3.1.2.1: prompt=none never shows a page; it answers with a code or an error.
      if (!user) throw this.redirectError(transaction, 'login_required', 'The user is not signed in.');
      if (transaction.acr && !meetsMfa(ctx.session?.amr)) throw this.redirectError(transaction, 'login_required', 'The user is not signed in with a second factor, which acr_values asked for.');
      if (!(await this.consents.isRemembered(user.id, client.id, transaction.scope, transaction.redirectUri))) {
        throw this.redirectError(transaction, 'consent_required', 'The user has not yet allowed this client these scopes.');
      }
      return this.approve(client, user, transaction, ctx.session!);
    }
    if (!user) return this.signInPage(client, transaction, ctx.ensureSession(), ctx);
    return this.consentOrCode(client, user, transaction, ctx.ensureSession(), ctx);
  }

  /** `POST /oauth/sign-in`: the sign-in form. */
  async signIn(form: SignInForm, ctx: FlowContext): Promise<FlowOutcome> {
    const { session, transaction, client } = await this.openForm(form, ctx);
    const attempt = await this.signIns.step(form, ctx);
    if (attempt.ok) return this.consentOrCode(client, attempt.user, { ...transaction, maxAge: undefined }, await ctx.signIn(attempt.user.id, attempt.amr, attempt.authAt), ctx);
    // Not signed in (yet): the code step, or the sign-in page with its problem; the request is kept.
    return attemptOutcome(attempt, {
      form: this.formState(transaction, session),
      email: form.email ?? '',
      clientName: client.name,
      redirectOrigin: new URL(transaction.redirectUri).origin,
      unverified: client.verified ? undefined : { redirectHost: new URL(transaction.redirectUri).host },
      passkeyOptions: await this.signIns.passkeyOptions(ctx),
      selfService: this.signIns.selfServiceLinks(),
    });
  }

  /** `POST /oauth/consent`: the consent form (docs/integrate-with-oauth.md). */
  async decide(form: ConsentForm, ctx: FlowContext): Promise<FlowOutcome> {
    const { session, transaction, client } = await this.openForm(form, ctx);
    const user = await this.signedInUser(session);
    // The session ended between the pages: sign in again, the request is kept.
    if (!user) return this.signInPage(client, transaction, session, ctx);

    const decision = form.decision;
    if (decision === 'deny') throw this.redirectError(transaction, 'access_denied', 'The user denied the request.');
    if (decision !== 'approve') throw new FormRefusedError('transaction');
    // A consent form of this session posted after its sign-in changed (another tab signed in with one factor).
    if (transaction.acr && !meetsMfa(session.amr)) return this.stepUp(client, user, transaction, session, ctx);
    await this.consents.remember(user.id, client, transaction.scope, transaction.redirectUri);
    await this.events.record({ userId: user.id, type: 'consent_given', ip: ctx.ip, details: { client: client.name, clientId: client.clientId, scope: formatScope(transaction.scope) } });
    return this.approve(client, user, transaction, session);
  }

  /**
   * docs/integrate-with-oauth.md, steps 1–2, in order. Problems with the client, its pushed request or the redirect URI
   * are a page (never a redirect, RFC 6749 §4.1.2.1); every later problem is a redirect with an error.
   */
  private async validate(rawQuery: string, ip: string): Promise<{ client: Client; transaction: Transaction; prompts: Set<string> }> {
    let parameters = parseQueryParameters(rawQuery);
    const { values, repeated } = parameters;

    if (repeated.has('client_id')) throw new AuthorizationRequestPageError('repeated_client_id');
    const clientId = values.get('client_id');
    if (!clientId) throw new AuthorizationRequestPageError('missing_client_id');
    const client = await this.clients.findForRequest(clientId, this.fetchBudgets.of(ip)).catch((error: unknown) => {
      // RFC 6749 §4.1.2.1: a client whose metadata document failed vouches for no redirect URI: a page.
      if (error instanceof ClientMetadataError) throw new AuthorizationRequestPageError('client_metadata_invalid', error.message);
      throw error;
    });
    if (!client) throw new AuthorizationRequestPageError('unknown_client');

    // RFC 9126 §4: with a request_uri the request is the one pushed, and every other query parameter
    // but client_id is ignored. An unusable one cannot vouch for any redirect URI: a page, no redirect.
    const pushed = repeated.has('request_uri') || values.has('request_uri');
    if (pushed) parameters = await this.pushedParameters(client, parameters);

    const { redirectUri } = this.checkRedirectUri(client, parameters);
    return { client, ...this.checkRequest(client, redirectUri, parameters, pushed) };
  }

  /**
   * RFC 9126 §4: the parameters pushed under this request_uri by this client, used up now (single use,
   * RFC 9126 §7.3), as if they had been sent in the query.
   */
  private async pushedParameters(client: Client, { values, repeated }: QueryParameters): Promise<QueryParameters> {
    if (repeated.has('request_uri')) throw new AuthorizationRequestPageError('repeated_request_uri');
    const stored = await this.pushed.use(client.id, values.get('request_uri')!);
    if (!stored) throw new AuthorizationRequestPageError('unknown_request_uri');
    return { values: new Map([...Object.entries(stored), ['client_id', client.clientId]]), repeated: new Set() };
  }

  /**
   * `POST /oauth/par` (RFC 9126 §2.1): the pushed parameters checked now as authorize would check them,
   * so that the client hears of a mistake at once, as an RFC 6749 §5.2 error. Returns what is stored:
   * the parameters without the client's id and credentials.
   */
  validatePushed(client: Client, form: Record<string, string>): Record<string, string> {
    if (form.request_uri !== undefined) throw new OAuthError('invalid_request', 'request_uri cannot be pushed (RFC 9126 section 2.1).');
    if (form.request !== undefined) throw new OAuthError('invalid_request', 'Request objects (the request parameter) are not supported.');
    const parameters = Object.fromEntries(Object.entries(form).filter(([name]) => name !== 'client_id' && name !== 'client_secret'));
    const query: QueryParameters = { values: new Map(Object.entries(parameters)), repeated: new Set() };
    try {
      const { redirectUri } = this.checkRedirectUri(client, query);
      this.checkRequest(client, redirectUri, query, true);
    } catch (error) {
      if (error instanceof AuthorizationRequestPageError) throw new OAuthError('invalid_request', PUSHED_REDIRECT_PROBLEMS[error.problem] ?? 'The redirect_uri is not valid.');
      if (error instanceof AuthorizationRedirectError && error.error !== 'access_denied' && error.error !== 'login_required' && error.error !== 'consent_required' && error.error !== 'server_error') {
        throw new OAuthError(error.error, error.description);
      }
      throw error;
    }
    return parameters;
  }

  /** The redirect URI must be exactly one the client registered (page errors: never redirected to). */
  private checkRedirectUri(client: Client, { values, repeated }: QueryParameters): { redirectUri: string } {
    if (repeated.has('redirect_uri')) throw new AuthorizationRequestPageError('repeated_redirect_uri');
    const redirectUri = values.get('redirect_uri');
    if (!redirectUri) throw new AuthorizationRequestPageError('missing_redirect_uri');
    // RFC 9700 §4.1.3: exact string comparison, no normalisation, no prefix or pattern matching; only
    // the port of a loopback IP literal may differ (RFC 8252 §7.3, docs/integrate-with-oauth.md).
    if (!matchesRegisteredRedirectUri(client.redirectUris, redirectUri)) throw new AuthorizationRequestPageError('unregistered_redirect_uri');
    return { redirectUri };
  }

  /** Everything after the redirect URI (docs/integrate-with-oauth.md, step 2): each problem goes back to the client. */
  private checkRequest(client: Client, redirectUri: string, { values, repeated }: QueryParameters, pushed: boolean): { transaction: Transaction; prompts: Set<string> } {
    // From here on errors go back to the client. A repeated state is ambiguous and is not echoed.
    const state = repeated.has('state') ? undefined : values.get('state');
    // The errors below already go back the way the client asked (OAuth 2.0 Form Post Response Mode §2),
    // unless that itself is in doubt.
    const responseMode = repeated.has('response_mode') ? undefined : values.get('response_mode');
    const target: Transaction = { clientId: client.clientId, redirectUri, state, scope: [], forceConsent: false, responseMode: responseMode === 'form_post' ? 'form_post' : undefined };
    const fail = (error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'invalid_target', description: string) =>
      this.redirectError(target, error, description);

    // RFC 6749 §3.1: request parameters MUST NOT be included more than once.
    if (repeated.size > 0) throw fail('invalid_request', repeatedParameterDescription([...repeated].sort()[0]));
    // RFC 9126 §5: an application registered with --require-par starts only from a pushed request.
    if (!pushed && client.requirePar) {
      throw fail('invalid_request', 'Pushed authorization request required: this client must send its request to the pushed_authorization_request_endpoint first.');
    }
    // OAuth 2.0 Multiple Response Type Encoding Practices §2.1: the default mode of `code` is query.
    if (responseMode !== undefined && responseMode !== 'query' && responseMode !== 'form_post') throw fail('invalid_request', 'response_mode must be query or form_post.');

    const responseType = values.get('response_type');
    if (!responseType) throw fail('invalid_request', 'The response_type parameter is missing.');
    if (responseType !== 'code') throw fail('unsupported_response_type', 'Only response_type=code is supported.');

    // RFC 7636 §4.3 and §4.4.1; only S256 is offered (RFC 9700 §2.1.1: plain adds nothing).
    const challenge = values.get('code_challenge');
    const method = values.get('code_challenge_method');
    if (method !== undefined && method !== 'S256') throw fail('invalid_request', 'Only code_challenge_method=S256 is supported.');
    if (challenge === undefined) {
      if (method !== undefined) throw fail('invalid_request', 'code_challenge_method was sent without code_challenge.');
      if (client.type === 'public') throw fail('invalid_request', 'Public clients must send a PKCE code_challenge (S256).');
    } else {
      // Without a method RFC 7636 §4.3 means "plain", which this server does not support.
      if (method === undefined) throw fail('invalid_request', 'code_challenge_method=S256 is required with code_challenge.');
      if (!isValidS256Challenge(challenge)) throw fail('invalid_request', 'code_challenge must be 43 base64url characters (S256).');
    }

    // RFC 6749 §3.3: without a scope the client's registered scopes apply (the documented default).
    const requested = values.has('scope') ? parseRequestedScope(values.get('scope')!) : [...client.scopes].sort();
    if (requested.length === 0) throw fail('invalid_scope', 'No scope was requested.');
    const unknown = requested.find((s) => !isKnownScope(s));
    if (unknown) throw fail('invalid_scope', `The scope ${unknown} is unknown.`);
    if (!isSubset(requested, client.scopes)) throw fail('invalid_scope', 'A requested scope is not allowed for this client.');

    // RFC 8707 §2: the resource the tokens will be for, one of this platform's (by redirect, as any error here).
    const resourceRaw = values.get('resource');
    const resource = resourceRaw === undefined ? undefined : this.resources.canonical(resourceRaw);
    if (resource === null) throw fail('invalid_target', INVALID_TARGET);

    const prompts = new Set(parseScope(values.get('prompt') ?? ''));
    const unsupported = [...prompts].find((p) => !PROMPTS.has(p));
    if (unsupported) throw fail('invalid_request', `The prompt value ${unsupported} is not supported.`);
    if (prompts.has('none') && prompts.size > 1) throw fail('invalid_request', 'prompt=none cannot be combined with other values.');

    // OIDC Core §3.1.2.1: nonce, max_age and login_hint (the ID token's claims and the sign-in page).
    const nonce = values.get('nonce');
    if (nonce !== undefined && (nonce.length === 0 || nonce.length > 512)) throw fail('invalid_request', 'nonce must be 1 to 512 characters.');
    const maxAgeRaw = values.get('max_age');
    if (maxAgeRaw !== undefined && !/^\d{1,9}$/.test(maxAgeRaw)) throw fail('invalid_request', 'max_age must be a whole number of seconds.');
    const loginHint = values.get('login_hint');
    if (loginHint !== undefined && loginHint.length > 254) throw fail('invalid_request', 'login_hint must be at most 254 characters.');
    // OIDC Core §3.1.2.1: acr_values, in order of preference. Only MFA_ACR is supported (discovery's
    // acr_values_supported); other values are not essential and are ignored, as the spec lets a server do.
    const acrValues = values.get('acr_values');
    if (acrValues !== undefined && acrValues.length > 512) throw fail('invalid_request', 'acr_values must be at most 512 characters.');
    const acr = acrValues !== undefined && parseScope(acrValues).includes(MFA_ACR) ? MFA_ACR : undefined;

    const transaction: Transaction = {
      ...target,
      scope: requested,
      resource,
      codeChallenge: challenge,
      codeChallengeMethod: challenge ? 'S256' : undefined,
      forceConsent: prompts.has('consent'),
      nonce,
      maxAge: maxAgeRaw === undefined ? undefined : Number(maxAgeRaw),
      loginHint: loginHint || undefined,
      acr,
    };
    return { transaction, prompts };
  }

  private async consentOrCode(client: Client, user: User, transaction: Transaction, session: Session, ctx: FlowContext): Promise<FlowOutcome> {
    if (transaction.acr && !meetsMfa(session.amr)) return this.stepUp(client, user, transaction, session, ctx);
    if (!transaction.forceConsent && (await this.consents.isRemembered(user.id, client.id, transaction.scope, transaction.redirectUri))) {
      return this.approve(client, user, transaction, session);
    }
    // The consent form carries the request without prompt=consent's flag: it has been honoured.
    return {
      kind: 'consent',
      clientName: client.name,
      userLabel: user.email,
      scopes: transaction.scope,
      redirectOrigin: new URL(transaction.redirectUri).origin,
      form: this.formState({ ...transaction, forceConsent: false }, session),
      unverified: client.verified ? undefined : { redirectHost: new URL(transaction.redirectUri).host, ...clientIdHost(client) },
    };
  }

  /** RFC 6749 §4.1.2: the code, the state exactly as sent and the issuer (RFC 9207). */
  private async approve(client: Client, user: User, transaction: Transaction, session: Session): Promise<FlowOutcome> {
    const code = await this.codes.issue({
      nonce: transaction.nonce,
      authTime: session.authAt,
      amr: session.amr,
      // OIDC Core §2: the class asked for, met (consentOrCode stepped up to it first).
      acr: transaction.acr && meetsMfa(session.amr) ? transaction.acr : undefined,
      clientId: client.id,
      userId: user.id,
      redirectUri: transaction.redirectUri,
      scope: transaction.scope,
      resource: transaction.resource,
      codeChallenge: transaction.codeChallenge,
      codeChallengeMethod: transaction.codeChallengeMethod,
    });
    const fields = { code, state: transaction.state, iss: this.app.publicUrl };
    if (transaction.responseMode === 'form_post') return { kind: 'form_post', redirectUri: transaction.redirectUri, fields };
    return { kind: 'redirect', location: authorizationResponseUrl(transaction.redirectUri, fields) };
  }

  /**
   * Opens a posted form, whose origin and CSRF token PageFormGuard checked: the sealed pending request
   * of this session, then that the client still exists with that redirect URI.
   */
  private async openForm(form: SignInForm | ConsentForm, ctx: FlowContext): Promise<{ session: Session; transaction: Transaction; client: Client }> {
    const session = ctx.session;
    // Without a session the guard's token check has failed already; the type does not know it.
    if (!session) throw new FormRefusedError('csrf');
    const transaction = this.sessions.openTransaction(form.transaction, session);
    if (!transaction) throw new FormRefusedError('transaction');
    const client = await this.clients.findByClientId(transaction.clientId);
    if (!client) throw new AuthorizationRequestPageError('unknown_client');
    if (!matchesRegisteredRedirectUri(client.redirectUris, transaction.redirectUri)) throw new AuthorizationRequestPageError('unregistered_redirect_uri');
    return { session, transaction, client };
  }

  /**
   * acr_values asked for two factors (src/oauth/acr.ts; docs/integrate-with-oauth.md, "Asking for a
   * second factor") and the session signed in with one: the authenticator's code step, or the sign-in
   * page's passkey, before any consent or code. An account with neither cannot meet it: access_denied
   * back to the client, which says why.
   */
  private async stepUp(client: Client, user: User, transaction: Transaction, session: Session, ctx: FlowContext): Promise<FlowOutcome> {
    const step = await this.signIns.stepUp(user, ctx);
    if (step.kind === 'none') {
      throw this.redirectError(transaction, 'access_denied', 'The application asked for a second factor (acr_values urn:startup-platform:acr:mfa), and this account has none: neither an authenticator app nor a passkey.');
    }
    const base = { clientName: client.name, redirectOrigin: new URL(transaction.redirectUri).origin, form: this.formState(transaction, session) };
    if (step.kind === 'code') return { kind: 'second_factor', ...base, form: { ...base.form, secondFactor: step.pending }, stepUp: true };
    const page = await this.signInPage(client, transaction, session, ctx);
    return { ...page, email: user.email, refused: { problem: 'passkey_needed' } };
  }

  private async signedInUser(session: Session | null): Promise<User | null> {
    if (!session?.uid) return null;
    return this.users.findById(session.uid);
  }

  private async signInPage(client: Client, transaction: Transaction, session: Session, ctx: FlowContext): Promise<SignInOutcome> {
    return {
      kind: 'sign_in',
      passkeyOptions: await this.signIns.passkeyOptions(ctx),
      clientName: client.name,
      redirectOrigin: new URL(transaction.redirectUri).origin,
      form: this.formState(transaction, session),
      email: transaction.loginHint,
      unverified: client.verified ? undefined : { redirectHost: new URL(transaction.redirectUri).host },
      selfService: this.signIns.selfServiceLinks(),
    };
  }

  private formState(transaction: Transaction, session: Session) {
    return { csrfToken: this.sessions.csrfToken(session), transaction: this.sessions.sealTransaction(transaction, session) };
  }

  private redirectError(
    transaction: Pick<Transaction, 'clientId' | 'redirectUri' | 'state' | 'responseMode'>,
    error: ConstructorParameters<typeof AuthorizationRedirectError>[1],
    description: string,
  ) {
    return new AuthorizationRedirectError(
      { clientId: transaction.clientId, redirectUri: transaction.redirectUri, state: transaction.state, issuer: this.app.publicUrl, responseMode: transaction.responseMode },
      error,
      description,
    );
  }
}

/** What a pushed request's unusable redirect URI is told (RFC 9126 §2.3: JSON, never a page). */
const PUSHED_REDIRECT_PROBLEMS: Partial<Record<string, string>> = {
  missing_redirect_uri: 'The redirect_uri parameter is missing.',
  unregistered_redirect_uri: 'The redirect_uri is not registered for this client.',
};

/**
 * A client known by its metadata document: the host of its client_id URL, which the consent page shows in
 * full (draft-ietf-oauth-client-id-metadata-document §6.3): its name is only what its document says.
 */
function clientIdHost(client: Client): { clientIdHost?: string } {
  return client.source === 'metadata_document' ? { clientIdHost: new URL(client.clientId).host } : {};
}

/** Whether the session's sign-in is recent enough for `max_age` (seconds); no max_age: any sign-in is. */
function isFreshEnough(session: Session | null, maxAge: number | undefined, now: number): boolean {
  if (maxAge === undefined) return true;
  if (session?.authAt === undefined) return false;
  return now - session.authAt <= maxAge * 1000;
}
