import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { EpochColumn } from '../database/columns';
import { User } from '../users/user.entity';

const counterColumn = { to: (v: number) => v, from: (v: string | number) => Number(v) };

/** A passkey of an account (WebAuthn Level 3, a discoverable credential): its public key only. */
@Entity({ name: 'passkeys' })
@Index('idx_passkeys_user', ['userId'])
export class Passkey {
  /** The credential id, base64url, as the authenticator made it. */
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id: string;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId: number;

  /** The COSE public key, base64url. */
  @Column({ name: 'public_key', type: 'text' })
  publicKey: string;

  /** The authenticator's signature counter (WebAuthn §6.1.1); 0 for authenticators that keep none. */
  @Column({ type: 'bigint', transformer: counterColumn })
  counter: number;

  /** The transports the browser reported (`internal`, `hybrid`, `usb`…), space-separated. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  transports: string | null;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;

  @Column(EpochColumn({ name: 'last_used_at', nullable: true }))
  lastUsedAt: number | null;
}
