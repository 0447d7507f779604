import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { Consent } from '../entities/consent.entity';
import { statements } from '../../database/transaction';
import { formatScope, isSubset } from '../../auth/scopes';

/** The consents users gave, per user, client and scope set (docs/integrate-with-oauth.md). */
@Injectable()
export class ConsentsService {
  constructor(
    @InjectRepository(Consent) private readonly consents: Repository<Consent>,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Whether the user already allowed this client these scopes. A remembered consent to a wider set
   * covers a narrower request too: the user has already granted more than is asked.
   */
  async isRemembered(userId: number, clientId: number, scopes: string[]): Promise<boolean> {
    const rows = await this.consents.find({ where: { userId, clientId }, select: { scope: true } });
    return rows.some((row) => isSubset(scopes, row.scope.split(' ')));
  }

  /** Whether the user has allowed this client anything before (and not revoked it since). */
  hasAny(userId: number, clientId: number): Promise<boolean> {
    return this.consents.exists({ where: { userId, clientId } });
  }

  async remember(userId: number, clientId: number, scopes: string[]): Promise<void> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    // Two approvals racing (two tabs) both succeed: the unique constraint keeps one row.
    await sql.run(
      `INSERT INTO oauth_consents (user_id, client_id, scope, created_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})
       ON CONFLICT (user_id, client_id, scope) DO NOTHING`,
      [userId, clientId, formatScope(scopes), Date.now()],
    );
  }
}
