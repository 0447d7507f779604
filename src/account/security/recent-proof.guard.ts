import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ProofRequiredError, ProofRequiredRedirect } from '../../web/account-errors';
import { safeReturnPath } from '../../web/forms/return-path';
import { signedInOf } from '../signed-in-page.guard';
import { RecentProofService } from './recent-proof.service';

const RECENT_PROOF = 'recentProof';

/**
 * The handler changes how the account signs in: it runs only with a proof given within REAUTH_MAX_AGE
 * (SECURITY.md, "A borrowed session adding a way in"). `page` is where the action's form is, where the
 * person returns once they have given the proof. After AccountPages (its guard runs first).
 */
export const RecentProof = (page: string) => applyDecorators(SetMetadata(RECENT_PROOF, page), UseGuards(RecentProofGuard));

/**
 * Reads `@RecentProof()` and lets the handler run only when the session's latest proof is recent. A
 * POST past it is refused before its handler reads the form, so it changes nothing whatever the form
 * carries (a `current_password` field too: a password typed into a borrowed session's form is no
 * reason to skip the page); a GET is sent to the confirm-access page. The guard decides and says what
 * the page offers; the page itself is the web layer's (ProofRequiredError, src/web/account-errors.ts).
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
    if (request.method === 'GET' || request.method === 'HEAD') throw new ProofRequiredRedirect(safeReturnPath(request.url));
    throw new ProofRequiredError(account, safeReturnPath(page), await this.proofs.offers(account));
  }
}
