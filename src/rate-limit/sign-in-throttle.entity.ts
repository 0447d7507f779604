import { Column, Entity, PrimaryColumn } from 'typeorm';
import { EpochColumn } from '../database/columns';

/**
 * Failed sign-in counters, per account (`account:<email>`) and per IP (`ip:<address>`), kept in the
 * database so that every instance behind a load balancer sees the same counts.
 */
@Entity({ name: 'sign_in_throttles' })
export class SignInThrottle {
  @PrimaryColumn({ type: 'varchar', length: 300 })
  key: string;

  @Column({ type: 'integer' })
  failures: number;

  @Column(EpochColumn({ name: 'window_started_at' }))
  windowStartedAt: number;
}
