import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Client } from '../../clients/client.entity';
import { EpochColumn } from '../../database/columns';

/**
 * A pushed authorization request (RFC 9126 §2): the parameters a client sent to `/oauth/par`, waiting
 * for the authorize request that names its `request_uri`. Single use, bound to its client, short-lived.
 */
@Entity({ name: 'oauth_pushed_requests' })
// The purge deletes by expiry; the cascade from a deleted client looks rows up by client.
@Index('idx_oauth_pushed_requests_expires_at', ['expiresAt'])
@Index('idx_oauth_pushed_requests_client_id', ['clientId'])
export class PushedRequest {
  /** SHA-256 (hex) of the random part of the `request_uri`: the value itself is never stored. */
  @PrimaryColumn({ name: 'id_hash', type: 'varchar', length: 64 })
  idHash: string;

  /** `oauth_clients.id` of the client that pushed it. */
  @Column({ name: 'client_id', type: 'integer' })
  @ForeignKey(() => Client, { onDelete: 'CASCADE' })
  clientId: number;

  /** The pushed parameters (without client_id and client credentials), as a JSON object of strings. */
  @Column({ type: 'text' })
  parameters: string;

  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;

  /** Set atomically by the one authorize request that uses it. */
  @Column(EpochColumn({ name: 'used_at', nullable: true }))
  usedAt: number | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}
