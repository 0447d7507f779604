import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { SignJWT } from 'jose';
import { Clock } from '../common/clock';
import { appConfig, oidcConfig } from '../config/configuration';
import { userClaims } from './user-claims';
import { UsersService } from '../users/users.service';
import { SigningAlg, SigningKeysService } from './keys/signing-keys.service';

export interface IdTokenRequest {
  /** The public client_id: the token's audience. */
  clientId: string;
  alg: SigningAlg;
  userId: number;
  scope: readonly string[];
  accessToken: string;
  /** When the user signed in (epoch ms). */
  authTime: number | null;
  /** RFC 8176 / OIDC Core §2: how the user signed in; omitted when not recorded. */
  amr?: string[] | null;
  /** OIDC Core §2: the authentication context class the sign-in met; omitted when none was asked for. */
  acr?: string | null;
  nonce?: string | null;
}

/**
 * OpenID Connect Core §2 ID tokens (docs/integrate-with-oauth.md, OpenID Connect), signed with the instance's current active key for the
 * client's algorithm. The claims of the scopes are those UserInfo answers (one definition of them).
 */
@Injectable()
export class IdTokenService {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly users: UsersService,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    @Inject(oidcConfig.KEY) private readonly oidc: ConfigType<typeof oidcConfig>,
    private readonly clock: Clock,
  ) {}

  /** The ID token, or null when the grant does not hold `openid`. */
  async issue(request: IdTokenRequest): Promise<string | null> {
    if (!request.scope.includes('openid')) return null;
    const [signer, user] = await Promise.all([this.keys.signingKey(request.alg), this.users.findProfile(request.userId)]);
    if (!user) return null;
    const claims: Record<string, unknown> = {
      ...userClaims(user, request.scope),
      at_hash: atHash(request.accessToken),
    };
    if (request.authTime !== null) claims.auth_time = Math.floor(request.authTime / 1000);
    if (request.amr && request.amr.length > 0) claims.amr = request.amr;
    if (request.acr) claims.acr = request.acr;
    if (request.nonce) claims.nonce = request.nonce;
    const now = Math.floor(this.clock.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: signer.alg, kid: signer.kid, typ: 'JWT' })
      .setIssuer(this.app.publicUrl)
      .setSubject(String(user.id))
      .setAudience(request.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + this.oidc.idTokenTtlSeconds)
      .sign(signer.key);
  }
}

/**
 * OIDC Core §3.1.3.6: the left half of the access token's hash, base64url. Both algorithms offered hash
 * with SHA-256.
 */
export function atHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
