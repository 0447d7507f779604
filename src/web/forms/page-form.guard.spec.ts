import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Session, SessionService } from '../session/session.service';
import { FormRefusal, PageForm, PageFormGuard, PageForms } from './page-form.guard';

class Refused extends Error {
  constructor(readonly problem: FormRefusal) {
    super(problem);
  }
}

const session: Session = { sid: 'sid-1', exp: Date.now() + 60_000 };
const sessions = {
  read: jest.fn(async (request: FastifyRequest) => ((request.headers.cookie as string | undefined) === 'session' ? session : null)),
  verifyCsrf: (found: Session | null, token: unknown) => found !== null && token === `csrf-of-${found.sid}`,
} as unknown as SessionService;
const app = { publicUrl: 'https://as.example' } as never;

class Forms {
  @PageForm((problem) => new Refused(problem))
  post(): void {}

  get(): void {}
}

function contextFor(request: Partial<FastifyRequest>, handler: keyof Forms = 'post'): ExecutionContext {
  return {
    switchToHttp: () => ({ getRequest: () => ({ method: 'POST', host: 'as.example', protocol: 'https', ...request }) }),
    getHandler: () => Forms.prototype[handler],
    getClass: () => Forms,
  } as unknown as ExecutionContext;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('PageFormGuard', () => {
  const sut = new PageFormGuard(new Reflector(), new PageForms(sessions, app));

  it('lets a same-site post with the session\'s CSRF token through', async () => {
    const request = { headers: { ...FORM, origin: 'https://as.example', 'sec-fetch-site': 'same-origin', cookie: 'session' }, body: { csrf_token: 'csrf-of-sid-1' } };
    await expect(sut.canActivate(contextFor(request as never))).resolves.toBe(true);
  });

  it('refuses a post from another site before it reads the session, with the route\'s own error', async () => {
    (sessions.read as jest.Mock).mockClear();
    const request = { headers: { ...FORM, origin: 'https://evil.example', cookie: 'session' }, body: { csrf_token: 'csrf-of-sid-1' } };
    await expect(sut.canActivate(contextFor(request as never))).rejects.toEqual(new Refused('cross_site'));
    expect(sessions.read).not.toHaveBeenCalled();
  });

  it.each([
    ['a wrong token', { cookie: 'session' }, { csrf_token: 'csrf-of-another' }],
    ['no token', { cookie: 'session' }, {}],
    ['no session', {}, { csrf_token: 'csrf-of-sid-1' }],
  ])('refuses a post with %s', async (_case, headers, body) => {
    const request = { headers: { ...FORM, 'sec-fetch-site': 'same-origin', ...headers }, body };
    await expect(sut.canActivate(contextFor(request as never))).rejects.toEqual(new Refused('csrf'));
  });

  it('reads no token from a body that is not a form', async () => {
    const request = { headers: { 'content-type': 'application/json', cookie: 'session' }, body: { csrf_token: 'csrf-of-sid-1' } };
    await expect(sut.canActivate(contextFor(request as never))).rejects.toEqual(new Refused('csrf'));
  });

  it('lets GET and HEAD through: they carry no form', async () => {
    for (const method of ['GET', 'HEAD']) {
      await expect(sut.canActivate(contextFor({ method, headers: { origin: 'https://evil.example' } } as never, 'get'))).resolves.toBe(true);
    }
  });
});
