import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { appConfig } from '../../config/configuration';
import { Session, SessionService } from '../session/session.service';
import { formOf } from './form';
import { isSameOriginPost } from './same-origin';

/** Why a form post of a page was refused before its handler ran. */
export type FormRefusal = 'cross_site' | 'csrf';

/** The error a page flow answers a refused form with: each flow has its own page (and way back). */
export type RefuseForm = (problem: FormRefusal) => Error;

const REFUSE_FORM = 'web:refuseForm';

/**
 * The one check of every form post of the pages (SECURITY.md; README.md, Pages): it comes from a page of
 * this site (isSameOriginPost), and it carries the CSRF token of the browser's session (a synchronizer
 * token bound to the session id, SessionService.verifyCsrf). A post without a session fails the token
 * check: there is nothing of the user's to act on. Returns the session it read.
 */
@Injectable()
export class PageForms {
  constructor(
    private readonly sessions: SessionService,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  async check(request: FastifyRequest, refuse: RefuseForm): Promise<Session | null> {
    // A post from another site is refused before anything is read from the database.
    if (!isSameOriginPost(request, this.app.publicUrl)) throw refuse('cross_site');
    const session = await this.sessions.read(request);
    if (!this.sessions.verifyCsrf(session, formOf(request).csrf_token)) throw refuse('csrf');
    return session;
  }
}

/**
 * Guards the POST routes of a page flow with PageForms.check; the route says how its flow refuses
 * (`@PageForm((problem) => new FormRefusedError(problem))`). GET and HEAD carry no form and pass.
 */
@Injectable()
export class PageFormGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly forms: PageForms,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.method === 'GET' || request.method === 'HEAD') return true;
    const refuse = this.reflector.getAllAndOverride<RefuseForm | undefined>(REFUSE_FORM, [context.getHandler(), context.getClass()]);
    if (refuse === undefined) throw new Error('PageFormGuard on a route without @PageForm');
    await this.forms.check(request, refuse);
    return true;
  }
}

/** A form post of a page: same site and CSRF token checked by PageFormGuard, refused as `refuse` says. */
export const PageForm = (refuse: RefuseForm) => applyDecorators(SetMetadata(REFUSE_FORM, refuse), UseGuards(PageFormGuard));
