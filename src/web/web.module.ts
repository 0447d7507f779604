import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PageFormGuard, PageForms } from './forms/page-form.guard';
import { EndedSession } from './session/ended-session.entity';
import { EndedSessionsRepository } from './session/ended-sessions.repository';
import { SessionService } from './session/session.service';

/**
 * The web layer of the pages people use in a browser (README.md, Pages): the sign-in session cookie
 * that the authorization flow, the logout pages and the account pages share, and the one check of
 * their form posts (PageFormGuard).
 */
@Module({
  imports: [TypeOrmModule.forFeature([EndedSession])],
  providers: [EndedSessionsRepository, SessionService, PageForms, PageFormGuard],
  exports: [SessionService, PageForms, PageFormGuard],
})
export class WebModule {}
