import { Module } from '@nestjs/common';
import { PageFormGuard, PageForms } from './forms/page-form.guard';
import { EndedSessionsModule } from './session/ended-sessions.module';
import { SessionService } from './session/session.service';

/**
 * The web layer of the pages people use in a browser (README.md, Pages): the sign-in session cookie
 * that the authorization flow, the logout pages and the account pages share, and the one check of
 * their form posts (PageFormGuard).
 */
@Module({
  imports: [EndedSessionsModule],
  providers: [SessionService, PageForms, PageFormGuard],
  exports: [SessionService, PageForms, PageFormGuard],
})
export class WebModule {}
