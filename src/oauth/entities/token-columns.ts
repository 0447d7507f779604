import { Column, ForeignKey, PrimaryGeneratedColumn } from 'typeorm';
import { Client } from '../../clients/client.entity';
import { EpochColumn, scopeList } from '../../database/columns';

/**
 * The columns an access token and a refresh token share: a secret stored only as its SHA-256 hash
 * (SECURITY.md), its client, scope, grant lineage, DPoP binding and lifetime.
 */
export abstract class TokenColumns {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column({ name: 'client_id', type: 'integer' })
  @ForeignKey(() => Client, { onDelete: 'CASCADE' })
  clientId: number;

  @Column({ type: 'text', transformer: scopeList })
  scope: string[];

  /** The grant lineage: every token descending from one grant (a code, a device authorization) shares it. */
  @Column({ name: 'family_id', type: 'varchar', length: 36 })
  familyId: string;

  /** RFC 9449 §6: the SHA-256 thumbprint (RFC 7638) of the DPoP key the token is bound to; null for a Bearer token. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  jkt: string | null;

  /**
   * RFC 8707: the resource (ProtectedResources) an access token is for, its audience; for a refresh token,
   * the resource of its grant. Null on tokens issued before audiences were stored: the public API.
   */
  @Column({ type: 'varchar', length: 255, nullable: true })
  resource: string | null;

  @Column(EpochColumn({ name: 'expires_at' }))
  expiresAt: number;

  @Column(EpochColumn({ name: 'revoked_at', nullable: true }))
  revokedAt: number | null;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;
}
