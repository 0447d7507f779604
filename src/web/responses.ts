import type { FastifyReply } from 'fastify';
import { Page, sendPage } from './page';

/**
 * A redirect of the flow. Answering a form post it is always 303 See Other (RFC 9110 §15.4.4), back to
 * the client as well as to a page of this site: the sign-in form carries the password, and a 307 would
 * have the browser post it again to the client (RFC 9700 §4.12), while a 302 leaves the method to the
 * browser. Answering a GET it is 302. Never cached, since it may carry a code.
 */
export function redirect(reply: FastifyReply, location: string, status: 302 | 303 = reply.request.method === 'POST' ? 303 : 302): void {
  reply.status(status).headers({ location, 'cache-control': 'no-store', pragma: 'no-cache' }).send();
}

/** What one step of a page flow answers: a page, or a redirect (to the client, or back to an account page). */
export type FlowOutcome = { kind: 'page'; page: Page } | { kind: 'redirect'; location: string; status?: 302 | 303 };

/** Sends what a step of the flow answered. */
export function sendOutcome(reply: FastifyReply, outcome: FlowOutcome): void {
  if (outcome.kind === 'redirect') redirect(reply, outcome.location, outcome.status);
  else sendPage(reply, outcome.page);
}
