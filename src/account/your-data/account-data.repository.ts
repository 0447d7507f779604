import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { statements, Tx } from '../../database/transaction';

export interface OwnedApplication {
  clientId: string;
  name: string;
  type: string;
  redirectUris: string[];
  scopes: string[];
  verified: boolean;
  createdAt: number;
}

export interface OwnedApiKey {
  name: string;
  prefix: string;
  tier: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** A passkey as its owner knows it: never its credential id or public key (docs/second-factor.md). */
export interface OwnedPasskey {
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** Whether the authenticator app is on and how many recovery codes are left: never the secret or a code's hash. */
export interface OwnedSecondFactor {
  authenticatorOn: boolean;
  recoveryCodesLeft: number;
}

type Row = Record<string, unknown>;
const epoch = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/**
 * What an account owns besides its own row (README.md, Your account: Your data): read for the download,
 * never a secret or a hash (only the public columns are selected), and deleted with the account. The
 * account's row goes in one statement: every table that refers to it (sessions' cutoff, consents, codes,
 * tokens, device requests, security events, its applications with their tokens and consents, its API
 * keys, its mailed links) has `ON DELETE CASCADE`.
 */
@Injectable()
export class AccountDataRepository {
  constructor(private readonly dataSource: DataSource) {}

  async applications(userId: number): Promise<OwnedApplication[]> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<Row>(
      `SELECT client_id, name, type, redirect_uris, scopes, verified, created_at FROM oauth_clients WHERE owner_id = ${sql.p(1)} ORDER BY created_at, id`,
      [userId],
    );
    return rows.map((row) => ({
      clientId: String(row.client_id),
      name: String(row.name),
      type: String(row.type),
      redirectUris: JSON.parse(String(row.redirect_uris ?? '[]')) as string[],
      scopes: String(row.scopes ?? '').split(' ').filter(Boolean),
      verified: row.verified === true || row.verified === 1,
      createdAt: Number(row.created_at),
    }));
  }

  async apiKeys(userId: number): Promise<OwnedApiKey[]> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<Row>(
      `SELECT name, prefix, tier, created_at, last_used_at, revoked_at FROM api_keys WHERE owner_id = ${sql.p(1)} ORDER BY created_at, id`,
      [userId],
    );
    return rows.map((row) => ({
      name: String(row.name),
      prefix: String(row.prefix),
      tier: String(row.tier),
      createdAt: Number(row.created_at),
      lastUsedAt: epoch(row.last_used_at),
      revokedAt: epoch(row.revoked_at),
    }));
  }

  async passkeys(userId: number): Promise<OwnedPasskey[]> {
    const sql = statements(this.dataSource);
    const { rows } = await sql.run<Row>(`SELECT name, created_at, last_used_at FROM passkeys WHERE user_id = ${sql.p(1)} ORDER BY created_at, id`, [userId]);
    return rows.map((row) => ({ name: String(row.name), createdAt: Number(row.created_at), lastUsedAt: epoch(row.last_used_at) }));
  }

  /** A setup not yet confirmed by a code is off: sign-in does not ask for it. */
  async secondFactor(userId: number): Promise<OwnedSecondFactor> {
    const sql = statements(this.dataSource);
    const p = sql.p;
    const { rows } = await sql.run<Row>(
      `SELECT
         (SELECT COUNT(*) FROM totp_authenticators WHERE user_id = ${p(1)} AND confirmed_at IS NOT NULL) AS authenticators,
         (SELECT COUNT(*) FROM recovery_codes WHERE user_id = ${p(2)} AND used_at IS NULL) AS codes_left`,
      [userId, userId],
    );
    return { authenticatorOn: Number(rows[0]?.authenticators ?? 0) > 0, recoveryCodesLeft: Number(rows[0]?.codes_left ?? 0) };
  }

  /** Deletes the account and, by cascade, everything it owns; false when it was already gone. */
  async deleteAccount(tx: Tx, userId: number): Promise<boolean> {
    const { affected } = await tx.run(`DELETE FROM users WHERE id = ${tx.p(1)}`, [userId]);
    return affected === 1;
  }
}
