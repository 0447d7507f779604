import type { FastifyReply } from 'fastify';
import { Language, requestLanguage } from '../common/i18n/language';
import type { FlowOutcome } from './outcomes';
import { Page, sendPage } from './page';
import { deviceCodePage, deviceDonePage } from './pages/device-pages';
import { consentPage, formErrorPage, formPostPage, heldErrorPage, requestErrorPage, secondFactorPage, signInPage } from './pages/pages';

/**
 * A redirect of the flow. Answering a form post it is always 303 See Other (RFC 9110 §15.4.4), back to
 * the client as well as to a page of this site: the sign-in form carries the password, and a 307 would
 * have the browser post it again to the client (RFC 9700 §4.12), while a 302 leaves the method to the
 * browser. Answering a GET it is 302. Never cached, since it may carry a code.
 */
export function redirect(reply: FastifyReply, location: string, status: 302 | 303 = reply.request.method === 'POST' ? 303 : 302): void {
  reply.status(status).headers({ location, 'cache-control': 'no-store', pragma: 'no-cache' }).send();
}

/**
 * Sends what a step of the flow answered: its redirect, or the page it names, in the language given
 * (by default the browser's, negotiated as FlowContexts and the exception filter do).
 */
export function sendOutcome(reply: FastifyReply, outcome: FlowOutcome, language: Language = requestLanguage(reply.request)): void {
  if (outcome.kind === 'redirect') redirect(reply, outcome.location, outcome.status);
  else sendPage(reply, outcomePage(outcome, language));
}

/** The page of an outcome: which builder, with what; the status and headers a refusal carries. */
export function outcomePage(outcome: Exclude<FlowOutcome, { kind: 'redirect' }>, language: Language): Page {
  switch (outcome.kind) {
    case 'sign_in': {
      const { kind: _kind, refused, ...input } = outcome;
      if (refused?.problem === 'throttled') return signInPage({ language, ...input, problem: 'throttled', status: 429, headers: { 'retry-after': String(refused.retryAfterSeconds) } });
      // The application asked for a second factor (acr_values) of a person whose only one is a passkey: a step, not a refusal.
      if (refused?.problem === 'passkey_needed') return signInPage({ language, ...input, problem: 'passkey_needed' });
      if (refused) return signInPage({ language, ...input, problem: refused.problem, status: 400 });
      return signInPage({ language, ...input });
    }
    case 'second_factor': {
      const { kind: _kind, refused, ...input } = outcome;
      if (refused?.problem === 'throttled') return secondFactorPage({ language, ...input, problem: 'throttled', status: 429, headers: { 'retry-after': String(refused.retryAfterSeconds) } });
      if (refused) return secondFactorPage({ language, ...input, problem: refused.problem, status: 400 });
      return secondFactorPage({ language, ...input });
    }
    case 'consent': {
      const { kind: _kind, ...input } = outcome;
      return consentPage({ language, ...input });
    }
    case 'form_post':
      return formPostPage({ language, redirectUri: outcome.redirectUri, fields: outcome.fields });
    case 'device_code': {
      const { refused } = outcome;
      const headers = refused?.problem === 'throttled' ? { 'retry-after': String(refused.retryAfterSeconds) } : undefined;
      return deviceCodePage({ language, csrfToken: outcome.csrfToken, userCode: outcome.userCode, problem: refused?.problem, headers });
    }
    case 'device_done':
      return deviceDonePage({ language, clientName: outcome.clientName, approved: outcome.approved });
    case 'request_error':
      return requestErrorPage(language, outcome.problem, outcome.detail);
    case 'form_error':
      return formErrorPage(language, outcome.problem, outcome.flow);
    case 'held_error':
      return heldErrorPage({ language, clientName: outcome.clientName, error: outcome.error, location: outcome.location, formPost: outcome.formPost });
  }
}
