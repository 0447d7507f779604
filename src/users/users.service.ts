import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { canonicalEmail, canonicalEmailOrThrow, emailKey } from '../common/text/email-address';
import { PasswordHasher } from './password-hasher';
import { User } from './user.entity';
import { UsersRepository } from './users.repository';

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`A user with the email ${email} already exists`);
  }
}

/** The key of an address: its canonical form (src/common/text/email-address.ts), or a refused value trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return emailKey(email);
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
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  /** A new account; EmailRefusedError for an address that has no canonical form, EmailTakenError for one that has an account. */
  async create(input: { email: string; name: string; password: string }): Promise<User> {
    const email = canonicalEmailOrThrow(input.email);
    if (await this.users.existsByEmail(email)) throw new EmailTakenError(email);
    return this.users.insert({
      email,
      name: input.name.trim(),
      passwordHash: await PasswordHasher.hash(input.password),
      // Made by the operator (users:create) or the demo data: the operator vouches for the address.
      emailVerified: true,
      createdAt: this.clock.now(),
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

  /** The account of this address in any spelling of it (its canonical form); none for a refused address. */
  async findByEmail(email: string): Promise<User | null> {
    const canonical = canonicalEmail(email);
    return canonical.ok ? this.users.findByEmail(canonical.email) : null;
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
