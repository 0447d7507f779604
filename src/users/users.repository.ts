import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { PreparedQuery, preparedQuery } from '../database/prepared-query';
import { User } from './user.entity';

/** What `/me` reads of a user. */
export interface UserProfileRow {
  id: number | string;
  name: string;
  email: string;
}

/**
 * The users (`users`). The profile is read on every `/me` call: a prepared statement
 * (src/database/prepared-query.ts) skips the ORM's per-query work.
 */
@Injectable()
export class UsersRepository {
  private readonly profileQuery: PreparedQuery<UserProfileRow>;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    dataSource: DataSource,
  ) {
    this.profileQuery = preparedQuery(dataSource, 'sp_user_profile', 'SELECT id, name, email FROM users WHERE id = $1');
  }

  existsByEmail(email: string): Promise<boolean> {
    return this.users.existsBy({ email });
  }

  insert(fields: Omit<User, 'id'>): Promise<User> {
    return this.users.save(this.users.create(fields));
  }

  async setPasswordHash(id: number, passwordHash: string): Promise<void> {
    await this.users.update({ id }, { passwordHash });
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
}
