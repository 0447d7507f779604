import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EndedSession } from './ended-session.entity';
import { EndedSessionsRepository } from './ended-sessions.repository';

/** The signed-out sessions (`ended_sessions`): for the session check and the purge, without the pages. */
@Module({
  imports: [TypeOrmModule.forFeature([EndedSession])],
  providers: [EndedSessionsRepository],
  exports: [EndedSessionsRepository],
})
export class EndedSessionsModule {}
