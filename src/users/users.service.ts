import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { hasControlCharacters } from '../common/validation/no-control-characters.decorator';
import { PreparedQuery, preparedQuery } from '../database/prepared-query';
import { PasswordHasher } from './password-hasher';
import { User } from './user.entity';

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`A user with the email ${email} already exists`);
  }
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** What `/me` shows of a user (the `profile` scope). */
export interface UserProfile {
  id: number;
  name: string;
  email: string;
  /** OpenID Connect Core §5.1 `email_verified`: the address is confirmed. */
  emailVerified: boolean;
}

@Injectable()
export class UsersService {
  private readonly profileQuery: PreparedQuery<{ id: number | string; name: string; email: string; email_verified: boolean | number }>;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    dataSource: DataSource,
  ) {
    this.profileQuery = preparedQuery(dataSource, 'sp_user_profile', 'SELECT id, name, email, email_verified FROM users WHERE id = $1');
  }

  async create(input: { email: string; name: string; password: string }): Promise<User> {
    const email = normalizeEmail(input.email);
    if (await this.users.existsBy({ email })) throw new EmailTakenError(email);
    const user = this.users.create({
      email,
      name: input.name.trim(),
      passwordHash: await PasswordHasher.hash(input.password),
      // Made by the operator (users:create) or the demo data: the operator vouches for the address.
      emailVerified: true,
      createdAt: Date.now(),
    });
    return this.users.save(user);
  }

  findById(id: number): Promise<User | null> {
    return this.users.findOneBy({ id });
  }

  /** The profile of a user, or null; one prepared statement, as it is read on every `/me` call. */
  async findProfile(id: number): Promise<UserProfile | null> {
    const [row] = await this.profileQuery.all(id);
    return row ? { id: Number(row.id), name: row.name, email: row.email, emailVerified: row.email_verified === true || row.email_verified === 1 } : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    // Never an address, and PostgreSQL would refuse the query (NUL): no such user.
    if (hasControlCharacters(email)) return null;
    return this.users.findOneBy({ email: normalizeEmail(email) });
  }

  /**
   * The user whose email and password match, or null. An unknown email costs the same as a wrong
   * password, so the answer's timing does not reveal which accounts exist.
   */
  async authenticate(email: string, password: string): Promise<User | null> {
    const user = await this.findByEmail(email);
    const ok = await PasswordHasher.verify(password, user?.passwordHash ?? PasswordHasher.dummy);
    return user && ok ? user : null;
  }
}
