import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { SecurityEventsService } from '../../account/events/security-events.service';
import { authConfig } from '../../config/configuration';
import { statements } from '../../database/transaction';

export interface PurgeResult {
  codes: number;
  accessTokens: number;
  refreshTokens: number;
  /** Security events past their 90 days (README.md, Your account). */
  securityEvents: number;
  /** Signed-out sessions whose cookie has expired anyway. */
  endedSessions: number;
  /** DPoP proofs remembered in the database past the moment they could be accepted (RFC 9449 §11.1). */
  dpopProofs: number;
}

/**
 * Removes what can no longer be used (expired codes and tokens, signed-out sessions past their expiry),
 * and security events past their retention. Rows are only deleted once expired: a consumed code or a
 * rotated or revoked refresh token stays until then, because presenting it again must still be
 * recognised as a replay (RFC 6749 §4.1.2, RFC 9700 §4.14.2). Each statement is an idempotent
 * DELETE, so several instances purging at once is harmless.
 */
@Injectable()
export class TokenPurgeService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly securityEvents: SecurityEventsService,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  async purge(now = Date.now()): Promise<PurgeResult> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    // Access tokens first: they point at refresh tokens, which point at codes.
    const accessTokens = await sql.run(`DELETE FROM oauth_access_tokens WHERE expires_at <= ${p(1)}`, [now]);
    const refreshTokens = await sql.run(`DELETE FROM oauth_refresh_tokens WHERE expires_at <= ${p(1)}`, [now]);
    const codes = await sql.run(`DELETE FROM oauth_authorization_codes WHERE expires_at <= ${p(1)}`, [now]);
    // Expired device authorizations (RFC 8628) answer only expired_token until then; gone, invalid_grant.
    await sql.run(`DELETE FROM oauth_device_authorizations WHERE expires_at <= ${p(1)}`, [now]);
    // Sign-in failure counters whose window has ended count for nothing any more.
    await sql.run(`DELETE FROM sign_in_throttles WHERE window_started_at <= ${p(1)}`, [now - this.auth.signInWindowSeconds * 1000]);
    // A signed-out session past its expiry no longer opens at all: its row proves nothing any more.
    const endedSessions = await sql.run(`DELETE FROM ended_sessions WHERE expires_at <= ${p(1)}`, [now]);
    // A pushed authorization request past its expiry can no longer be used, used or not (RFC 9126 §4).
    await sql.run(`DELETE FROM oauth_pushed_requests WHERE expires_at <= ${p(1)}`, [now]);
    // A used DPoP proof past its acceptance window would be refused for its iat anyway.
    const dpopProofs = await sql.run(`DELETE FROM dpop_proofs WHERE expires_at <= ${p(1)}`, [now]);
    const securityEvents = await this.securityEvents.purge(now);
    return {
      codes: codes.affected,
      accessTokens: accessTokens.affected,
      refreshTokens: refreshTokens.affected,
      securityEvents,
      endedSessions: endedSessions.affected,
      dpopProofs: dpopProofs.affected,
    };
  }
}
