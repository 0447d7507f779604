import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SecondFactorModule } from '../second-factor/second-factor.module';
import { SignInChangesModule } from '../security-events/sign-in-changes.module';
import { UsersModule } from '../users/users.module';
import { Passkey } from './passkey.entity';
import { PasskeysRepository } from './passkeys.repository';
import { PasskeysService } from './passkeys.service';
import { UsedPasskeyChallenge } from './used-challenge.entity';
import { PasskeyScriptsController } from './passkey-scripts.controller';

/** Passkeys (docs/second-factor.md, "Passkeys"), for the sign-in page and the security page. */
@Module({
  imports: [TypeOrmModule.forFeature([Passkey, UsedPasskeyChallenge]), SecondFactorModule, SignInChangesModule, UsersModule],
  controllers: [PasskeyScriptsController],
  providers: [PasskeysRepository, PasskeysService],
  exports: [PasskeysService],
})
export class PasskeysModule {}
