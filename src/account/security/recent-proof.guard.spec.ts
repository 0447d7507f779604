import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { RenderedError } from '../../common/errors/rendered-error';
import { ProofRequiredError } from '../../web/account-errors';
import { RecentProof, RecentProofGuard } from './recent-proof.guard';

const signedIn = { user: { id: 7 }, session: { sid: 'sid', uid: 7, authAt: 0, exp: 1 }, language: 'en', csrfToken: 'csrf' };
let guardRan = true;
jest.mock('../signed-in-page.guard', () => ({ signedInOf: () => (guardRan ? signedIn : undefined) }));

class Pages {
  @RecentProof('/account/security')
  change(): void {}

  open(): void {}
}

describe('RecentProofGuard', () => {
  function setUp(recent: boolean) {
    const proofs = { isRecent: jest.fn(() => recent), offers: jest.fn(async () => ({ code: false, passkeyOptions: '{}' })) };
    return { sut: new RecentProofGuard(new Reflector(), proofs as never), proofs };
  }

  function context(handler: () => void, method: string, url: string): ExecutionContext {
    return { getHandler: () => handler, getClass: () => Pages, switchToHttp: () => ({ getRequest: () => ({ method, url }) }) } as unknown as ExecutionContext;
  }

  /** What a refused request answers: the error rendered on a reply that records it. */
  function answer(error: unknown): { status?: number; location?: string; returnTo?: string } {
    const sent: { status?: number; location?: string } = {};
    const reply = {
      status(code: number) {
        sent.status = code;
        return this;
      },
      headers(h: Record<string, string>) {
        sent.location = h.location;
        return this;
      },
      send: () => undefined,
    } as unknown as FastifyReply;
    if (!(error instanceof RenderedError)) throw error;
    // The confirm-access page the web layer renders for the error (its markup is the views' business).
    if (error instanceof ProofRequiredError) {
      const page = error.page() as unknown as { status: number; data: { fields: Array<[string, string]> } };
      return { status: page.status, returnTo: Object.fromEntries(page.data.fields).return_to };
    }
    error.render(reply, {} as never);
    return sent;
  }

  beforeEach(() => (guardRan = true));

  it('lets a handler without @RecentProof() run, whatever the session', async () => {
    const { sut, proofs } = setUp(false);
    await expect(sut.canActivate(context(Pages.prototype.open, 'POST', '/x'))).resolves.toBe(true);
    expect(proofs.isRecent).not.toHaveBeenCalled();
  });

  it('lets the handler run with a recent proof', async () => {
    await expect(setUp(true).sut.canActivate(context(Pages.prototype.change, 'POST', '/account/security/password'))).resolves.toBe(true);
  });

  it('refuses a POST past the window with the confirm-access page, returning to the page the decorator names', async () => {
    const { sut, proofs } = setUp(false);
    const refused = await sut.canActivate(context(Pages.prototype.change, 'POST', '/account/security/password')).catch((e: unknown) => e);
    expect(answer(refused)).toEqual({ status: 403, returnTo: '/account/security' });
    expect(proofs.offers).toHaveBeenCalledWith(signedIn);
  });

  it('sends a GET past the window to confirm-access, which returns to it (a safe local path only)', async () => {
    const { sut } = setUp(false);
    const refused = await sut.canActivate(context(Pages.prototype.change, 'GET', '/account/security?x=1')).catch((e: unknown) => e);
    expect(answer(refused)).toEqual({ status: 303, location: '/account/confirm-access?return_to=%2Faccount%2Fsecurity%3Fx%3D1' });
  });

  it('refuses to run before the account guard found the signed-in user', async () => {
    guardRan = false;
    await expect(setUp(true).sut.canActivate(context(Pages.prototype.change, 'POST', '/account/security/password'))).rejects.toThrow('RecentProofGuard runs after SignedInPageGuard');
  });
});
