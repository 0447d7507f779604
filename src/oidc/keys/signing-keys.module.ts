import { Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwksController } from './jwks.controller';
import { SigningKey } from './signing-key.entity';
import { SigningKeysRepository } from './signing-keys.repository';
import { SigningKeysService } from './signing-keys.service';

/** The keys and their service, without start-up work: what the CLI's `keys:*` commands run on. */
@Module({
  imports: [TypeOrmModule.forFeature([SigningKey])],
  providers: [SigningKeysRepository, SigningKeysService],
  exports: [SigningKeysService],
})
export class SigningKeysStoreModule {}

/** The service's start: an active key per algorithm exists, and this process can decrypt it. */
@Injectable()
export class SigningKeysStartup implements OnApplicationBootstrap {
  constructor(private readonly keys: SigningKeysService) {}

  onApplicationBootstrap(): Promise<void> {
    return this.keys.ensureKeys();
  }
}

/**
 * ID-token signing keys (docs/integrate-with-oauth.md, OpenID Connect): `SigningKeysService` (`signingKey(alg)`, `jwks()`) for the
 * modules that sign or verify, `GET /oauth/jwks`, and the keys made on the first start.
 */
@Module({
  imports: [SigningKeysStoreModule],
  controllers: [JwksController],
  providers: [SigningKeysStartup],
  exports: [SigningKeysStoreModule],
})
export class SigningKeysModule {}
