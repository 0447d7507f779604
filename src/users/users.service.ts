import { Injectable } from '@nestjs/common';
import { hasControlCharacters } from '../common/validation/no-control-characters.decorator';
import { PasswordHasher } from './password-hasher';
import { User } from './user.entity';
import { UsersRepository } from './users.repository';

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
  constructor(private readonly users: UsersRepository) {}

  async create(input: { email: string; name: string; password: string }): Promise<User> {
    const email = normalizeEmail(input.email);
    if (await this.users.existsByEmail(email)) throw new EmailTakenError(email);
    return this.users.insert({
      email,
      name: input.name.trim(),
      passwordHash: await PasswordHasher.hash(input.password),
      // Made by the operator (users:create) or the demo data: the operator vouches for the address.
      emailVerified: true,
      createdAt: Date.now(),
      sessionsValidFrom: null,
    });
  }

  findById(id: number): Promise<User | null> {
    return this.users.findById(id);
  }

  /** The profile of a user, or null; one prepared statement (UsersRepository), as it is read on every `/me` call. */
  async findProfile(id: number): Promise<UserProfile | null> {
    const row = await this.users.findProfile(id);
    return row ? { id: Number(row.id), name: row.name, email: row.email, emailVerified: row.email_verified === true || row.email_verified === 1 } : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    // Never an address, and PostgreSQL would refuse the query (NUL): no such user.
    if (hasControlCharacters(email)) return null;
    return this.users.findByEmail(normalizeEmail(email));
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
