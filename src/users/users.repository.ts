import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { PreparedQuery, preparedQuery } from '../database/prepared-query';
import { Tx } from '../database/transaction';
import { User } from './user.entity';

/** What `/me` and the user claims read of a user. */
export interface UserProfileRow {
  id: number | string;
  name: string;
  email: string;
  /** PostgreSQL gives a boolean, SQLite 0 or 1. */
  email_verified: boolean | number;
}

/**
 * The users (`users`). The profile is read on every `/me` call: a prepared statement
 * (src/database/prepared-query.ts) skips the ORM's per-query work. The statements that take a `Tx` run
 * inside another change's transaction (src/database/transaction.ts): an account created from a confirmed
 * sign-up, with the mail that tells about it.
 */
@Injectable()
export class UsersRepository {
  private readonly profileQuery: PreparedQuery<UserProfileRow>;
  private readonly endedAfterQuery: PreparedQuery<{ ended: number }>;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    dataSource: DataSource,
  ) {
    this.profileQuery = preparedQuery(dataSource, 'sp_user_profile', 'SELECT id, name, email, email_verified FROM users WHERE id = $1');
    this.endedAfterQuery = preparedQuery(dataSource, 'sp_user_sessions_ended', 'SELECT 1 AS ended FROM users WHERE id = $1 AND sessions_valid_from > $2');
  }

  existsByEmail(email: string): Promise<boolean> {
    return this.users.existsBy({ email });
  }

  insert(fields: Omit<User, 'id'>): Promise<User> {
    return this.users.save(this.users.create(fields));
  }

  findById(id: number): Promise<User | null> {
    return this.users.findOneBy({ id });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.findOneBy({ email });
  }

  async findProfile(id: number): Promise<UserProfileRow | undefined> {
    return (await this.profileQuery.all(id))[0];
  }

  /** Whether the account's sign-in sessions were ended after `at` (users.sessions_valid_from): a password reset or change, a new address. */
  async sessionsEndedAfter(id: number, at: number): Promise<boolean> {
    return (await this.endedAfterQuery.all(id, at)).length > 0;
  }

  async idByEmail(tx: Tx, email: string): Promise<number | null> {
    const { rows } = await tx.run<{ id: number | string }>(`SELECT id FROM users WHERE email = ${tx.p(1)}`, [email]);
    return rows[0] ? Number(rows[0].id) : null;
  }

  /**
   * Deletes an account and, by cascade, everything it owns: every table that refers to `users` (sessions'
   * cutoff, consents, codes, tokens, device requests, security events, passkeys, the authenticator and its
   * recovery codes, its applications with their tokens and consents, its API keys, its mailed links) has
   * `ON DELETE CASCADE` (docs/add-a-module.md, "A table a user owns"). False when it was already gone.
   */
  async deleteAccount(tx: Tx, id: number): Promise<boolean> {
    const { affected } = await tx.run(`DELETE FROM users WHERE id = ${tx.p(1)}`, [id]);
    return affected === 1;
  }

  /** Creates the account of a confirmed sign-up (`email_verified` true) unless the address already has one (then null, nothing written). */
  async insertConfirmed(tx: Tx, user: { email: string; name: string; passwordHash: string; createdAt: number }): Promise<number | null> {
    const p = tx.p;
    const { rows } = await tx.run<{ id: number | string }>(
      `INSERT INTO users (email, name, password_hash, email_verified, created_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, true, ${p(4)}) ON CONFLICT DO NOTHING RETURNING id`,
      [user.email, user.name, user.passwordHash, user.createdAt],
    );
    return rows[0] ? Number(rows[0].id) : null;
  }
}
