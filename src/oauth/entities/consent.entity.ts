import { Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Client } from '../../clients/client.entity';
import { EpochColumn, jsonStringArray } from '../../database/columns';
import { User } from '../../users/user.entity';

/** A user's remembered consent for one client and one scope set (scopes sorted, space-separated). */
@Entity({ name: 'oauth_consents' })
@Unique('uq_oauth_consents_user_client_scope', ['userId', 'clientId', 'scope'])
export class Consent {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId: number;

  @Column({ name: 'client_id', type: 'integer' })
  @ForeignKey(() => Client, { onDelete: 'CASCADE' })
  clientId: number;

  @Column({ type: 'varchar', length: 500 })
  scope: string;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;

  /**
   * The redirect URIs it covers: the client's when it was first given, and those it was given through
   * since; a code is sent on it without a page only to one of them (ConsentsService). Null for a row
   * written without them (none is covered then).
   */
  @Column({ name: 'redirect_uris', type: 'text', nullable: true, transformer: jsonStringArray })
  redirectUris: string[] | null;

  /** When the client last received a token for this user (a code redeemed, a refresh); null before. */
  @Column(EpochColumn({ name: 'last_used_at', nullable: true }))
  lastUsedAt: number | null;
}
