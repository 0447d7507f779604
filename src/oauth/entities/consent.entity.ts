import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { EpochColumn } from '../../database/columns';

/** A user's remembered consent for one client and one scope set (scopes sorted, space-separated). */
@Entity({ name: 'oauth_consents' })
@Unique('uq_oauth_consents_user_client_scope', ['userId', 'clientId', 'scope'])
export class Consent {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ type: 'varchar', length: 500 })
  scope: string;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;

  /** When the client last received a token for this user (a code redeemed, a refresh); null before. */
  @Column(EpochColumn({ name: 'last_used_at', nullable: true }))
  lastUsedAt: number | null;
}
