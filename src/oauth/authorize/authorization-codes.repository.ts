import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThanOrEqual, Repository } from 'typeorm';
import { Tx } from '../../database/transaction';
import { AuthorizationCode } from '../entities/authorization-code.entity';
import { Purgeable } from '../../database/purgeable';

/**
 * The authorization codes (`oauth_authorization_codes`, RFC 6749 §4.1.2), stored only as hashes.
 * Issuing, reading and purging go through the ORM; the two writes that join a grant's transaction
 * (src/database/transaction.ts) are statements of its `Tx`, and redemption stays one conditional UPDATE
 * because its affected-row count is what decides concurrent redemptions.
 */
@Injectable()
export class AuthorizationCodesRepository implements Purgeable {
  constructor(@InjectRepository(AuthorizationCode) private readonly codes: Repository<AuthorizationCode>) {}

  async insert(code: Omit<AuthorizationCode, 'id'>): Promise<void> {
    await this.codes.insert(code);
  }

  findByHash(codeHash: string): Promise<AuthorizationCode | null> {
    return this.codes.findOneBy({ codeHash });
  }

  /**
   * Marks the code used. The single use is decided here: of concurrent redemptions, on any instance,
   * exactly one updates the row (true); the others see it consumed (false) and treat it as a replay.
   */
  async redeem(tx: Tx, id: number, now: number): Promise<boolean> {
    const consumed = await tx.run(`UPDATE oauth_authorization_codes SET consumed_at = ${tx.p(1)} WHERE id = ${tx.p(2)} AND consumed_at IS NULL`, [now, id]);
    return consumed.affected === 1;
  }

  /** A code issued to this user for this client but not yet redeemed would mint new tokens: it counts as used from now on. */
  async retireOfUser(tx: Tx, userId: number, clientId: number, now: number): Promise<void> {
    await tx.run(
      `UPDATE oauth_authorization_codes SET consumed_at = ${tx.p(1)} WHERE user_id = ${tx.p(2)} AND client_id = ${tx.p(3)} AND consumed_at IS NULL`,
      [now, userId, clientId],
    );
  }

  /** Every code of the user not yet redeemed, for every client: it can no longer be exchanged. */
  async retireAllOfUser(tx: Tx, userId: number, now: number): Promise<void> {
    await tx.run(`UPDATE oauth_authorization_codes SET consumed_at = ${tx.p(1)} WHERE user_id = ${tx.p(2)} AND consumed_at IS NULL`, [now, userId]);
  }

  /** Deletes the codes past their expiry; a consumed one stays until then, so a replay is still recognised (RFC 6749 §4.1.2). */
  async purgeExpired(now: number): Promise<number> {
    return (await this.codes.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}
