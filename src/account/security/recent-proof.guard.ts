import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RenderedError } from '../../common/errors/rendered-error';
import type { ConfirmAccessProblem } from './account-security.outcomes';
import { Page, sendPage } from '../../web/page';
import { confirmAccessLink, confirmAccessPage } from '../../web/pages/account/confirm-access-page';
import { safeReturnPath } from '../../web/forms/return-path';
import { SignedIn, signedInOf } from '../signed-in-page.guard';
import { RecentProofService } from './recent-proof.service';

const RECENT_PROOF = 'recentProof';

/**
 * The handler changes how the account signs in: it runs only with a proof given within REAUTH_MAX_AGE
 * (SECURITY.md, "A borrowed session adding a way in"). `page` is where the action's form is, where the
 * person returns once they have given the proof. After AccountPages (its guard runs first).
 */
export const RecentProof = (page: string) => applyDecorators(SetMetadata(RECENT_PROOF, page), UseGuards(RecentProofGuard));

/** An action refused for want of a recent proof: the confirm-access page instead, and nothing changed. */
class ProofRequiredError extends RenderedError {
  constructor(private readonly page: Page) {
    super('recent proof required');
  }

  render(reply: FastifyReply): void {
    sendPage(reply, this.page);
  }
}

/** A page that starts a ceremony asked for without a recent proof: 303 to confirm-access, which returns here. */
class ProofRequiredRedirect extends RenderedError {
  constructor(private readonly location: string) {
    super('recent proof required');
  }

  render(reply: FastifyReply): void {
    reply.status(303).headers({ location: this.location, 'cache-control': 'no-store', pragma: 'no-cache' }).send();
  }
}

/**
 * Reads `@RecentProof()` and lets the handler run only when the session's latest proof is recent. A
 * POST past it is refused before its handler reads the form, so it changes nothing whatever the form
 * carries (a `current_password` field too: a password typed into a borrowed session's form is no
 * reason to skip the page); it is answered 403 with the confirm-access page. A GET is sent there.
 */
@Injectable()
export class RecentProofGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly proofs: RecentProofService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const page = this.reflector.get<string | undefined>(RECENT_PROOF, context.getHandler());
    if (page === undefined) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const account = signedInOf(request);
    if (!account) throw new Error('RecentProofGuard runs after SignedInPageGuard');
    if (this.proofs.isRecent(account.session)) return true;
    if (request.method === 'GET' || request.method === 'HEAD') throw new ProofRequiredRedirect(confirmAccessLink(safeReturnPath(request.url)));
    throw new ProofRequiredError(await confirmAccessPageFor(this.proofs, account, safeReturnPath(page), { asked: true, status: 403 }));
  }
}

/** The confirm-access page for this account, returning to `returnTo` (a safe local path). */
export async function confirmAccessPageFor(
  proofs: RecentProofService,
  account: SignedIn,
  returnTo: string,
  extra: { asked?: boolean; status?: number; problem?: ConfirmAccessProblem; retryAfterSeconds?: number } = {},
): Promise<Page> {
  return confirmAccessPage(account, { returnTo, ...(await proofs.offers(account)), ...extra });
}
