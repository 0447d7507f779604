import type { FastifyReply } from 'fastify';
import { AuthorizationErrorCode, oauthDescription } from '../../common/errors/oauth-error';
import { RenderedError } from '../../common/errors/rendered-error';
import { Language } from '../../common/i18n/language';
import { FlowOutcome, FormProblem, PageFlow, RequestProblem } from '../../web/outcomes';
import { sendOutcome } from '../../web/responses';
import { authorizationResponseUrl } from './authorization-response';

export type { AuthorizationErrorCode } from '../../common/errors/oauth-error';

/**
 * The client or its redirect URI cannot be trusted (RFC 6749 §4.1.2.1): the user sees an HTML page and
 * is NOT sent anywhere, so the endpoint cannot be used as an open redirector.
 */
export class AuthorizationRequestPageError extends RenderedError {
  constructor(
    readonly problem: RequestProblem,
    /** The reason in the words of an OAuth error_description (a client metadata document's problem). */
    readonly detail?: string,
  ) {
    super(`authorization request refused: ${problem}`);
  }

  outcome(): FlowOutcome {
    return { kind: 'request_error', problem: this.problem, detail: this.detail };
  }

  render(reply: FastifyReply, context: { language: Language }): void {
    sendOutcome(reply, this.outcome(), context.language);
  }
}

/** A sign-in or consent form post that cannot be trusted (CSRF, cross-site, expired request): a page, no redirect. */
export class FormRefusedError extends RenderedError {
  constructor(
    readonly problem: FormProblem,
    /** The device flow's forms: the page links back to `/device`. */
    readonly flow?: PageFlow,
  ) {
    super(`form refused: ${problem}`);
  }

  outcome(): FlowOutcome {
    return { kind: 'form_error', problem: this.problem, flow: this.flow };
  }

  render(reply: FastifyReply, context: { language: Language }): void {
    sendOutcome(reply, this.outcome(), context.language);
  }
}

/**
 * Any other problem of a request whose client and redirect URI are known (RFC 6749 §4.1.2.1): a 302
 * (a 303 answering a form post, see `redirect`) back to the client with `error`, `error_description`,
 * `state` (when sent) and `iss` (RFC 9207) — or, when the request asked for `response_mode=form_post`, the
 * same fields posted by a page (formPostPage).
 */
export class AuthorizationRedirectError extends RenderedError {
  readonly location: string;
  /** The response's parameters, in order: the query of `location`, or the fields of a form post. */
  readonly fields: Record<string, string | undefined>;

  constructor(
    /** `clientId`: whose redirect URI it is, so that an unverified client's error can be held (HeldAuthorizationError). */
    readonly target: { clientId?: string; redirectUri: string; state?: string; issuer: string; responseMode?: 'form_post' },
    readonly error: AuthorizationErrorCode,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
    this.fields = { error, error_description: oauthDescription(description), state: target.state, iss: target.issuer };
    this.location = authorizationResponseUrl(target.redirectUri, this.fields);
  }

  outcome(): FlowOutcome {
    if (this.target.responseMode === 'form_post') return { kind: 'form_post', redirectUri: this.target.redirectUri, fields: this.fields };
    return { kind: 'redirect', location: this.location };
  }

  render(reply: FastifyReply, context: { language: Language }): void {
    sendOutcome(reply, this.outcome(), context.language);
  }
}

/**
 * The error of an unverified application, held on a page of this server instead of redirected (RFC
 * 9700 §4.11.2; docs/integrate-with-oauth.md): the user has neither signed in nor consented in this
 * flow, nor allowed the application before, so nothing shows they meant to go there. A 400 page names
 * the error and links to the redirect a verified application would get.
 */
export class HeldAuthorizationError extends RenderedError {
  constructor(
    readonly redirect: AuthorizationRedirectError,
    readonly clientName: string,
  ) {
    super(`held for an unverified client: ${redirect.message}`);
  }

  outcome(): FlowOutcome {
    const { target, fields } = this.redirect;
    return {
      kind: 'held_error',
      clientName: this.clientName,
      error: this.redirect.error,
      location: this.redirect.location,
      formPost: target.responseMode === 'form_post' ? { redirectUri: target.redirectUri, fields } : undefined,
    };
  }

  render(reply: FastifyReply, context: { language: Language }): void {
    sendOutcome(reply, this.outcome(), context.language);
  }
}
