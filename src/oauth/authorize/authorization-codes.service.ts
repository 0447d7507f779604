import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { generateSecret, SECRET_PREFIX, sha256Hex } from '../../common/crypto/secrets';
import { Clock } from '../../common/clock';
import { authConfig } from '../../config/configuration';
import { AuthorizationCodesRepository } from './authorization-codes.repository';

export interface CodeGrant {
  clientId: number;
  userId: number;
  redirectUri: string;
  scope: string[];
  /** RFC 8707: the resource the request named, if any. */
  resource?: string;
  codeChallenge?: string;
  codeChallengeMethod?: 'S256';
  nonce?: string;
  /** When the user signed in (epoch ms). */
  authTime?: number;
  /** RFC 8176: how the user signed in, for the ID token's `amr`. */
  amr?: string[];
  /** OIDC Core §2: the authentication context class met, for the ID token's `acr`. */
  acr?: string;
}

/**
 * Authorization codes (RFC 6749 §4.1.2): 256 random bits, stored only as their SHA-256, bound to the
 * client, redirect URI, user, scope and PKCE challenge, living AUTH_CODE_TTL seconds (RFC 6749 §4.1.2
 * recommends at most 10 minutes). Redemption is in the token service.
 */
@Injectable()
export class AuthorizationCodesService {
  constructor(
    private readonly codes: AuthorizationCodesRepository,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
    private readonly clock: Clock,
  ) {}

  async issue(grant: CodeGrant): Promise<string> {
    const code = generateSecret(SECRET_PREFIX.authorizationCode, 32);
    const now = this.clock.now();
    await this.codes.insert({
      codeHash: sha256Hex(code),
      clientId: grant.clientId,
      userId: grant.userId,
      redirectUri: grant.redirectUri,
      scope: grant.scope,
      resource: grant.resource ?? null,
      codeChallenge: grant.codeChallenge ?? null,
      codeChallengeMethod: grant.codeChallengeMethod ?? null,
      nonce: grant.nonce ?? null,
      authTime: grant.authTime ?? null,
      amr: grant.amr ?? null,
      acr: grant.acr ?? null,
      expiresAt: now + this.auth.authCodeTtlSeconds * 1000,
      consumedAt: null,
      createdAt: now,
    });
    return code;
  }
}
