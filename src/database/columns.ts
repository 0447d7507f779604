import { ColumnOptions, ValueTransformer } from 'typeorm';

/**
 * Instants are stored as epoch milliseconds in a BIGINT column: one representation that compares,
 * indexes and round-trips identically on SQLite and PostgreSQL (node-postgres returns BIGINT as a
 * string, hence the transformer).
 */
const epochMillis: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? null : Number(value)),
};

export function EpochColumn(options: Pick<ColumnOptions, 'name' | 'nullable'>): ColumnOptions {
  return { type: 'bigint', transformer: epochMillis, ...options };
}

/** Space-separated scope lists (RFC 6749 §3.3), kept as one text column. */
export const scopeList: ValueTransformer = {
  to: (value: string[] | undefined) => (value === undefined ? undefined : value.join(' ')),
  from: (value: string | null) => (value ? value.split(' ').filter(Boolean) : []),
};

/**
 * RFC 8176 authentication method references (`pwd`, `otp`, `mfa`), space-separated in one text
 * column; null (unknown) for rows made before they were recorded.
 */
export const methodList: ValueTransformer = {
  to: (value: string[] | null | undefined) => (value === undefined ? undefined : value === null || value.length === 0 ? null : value.join(' ')),
  from: (value: string | null) => (value ? value.split(' ').filter(Boolean) : null),
};

/** A JSON array of strings in a text column (portable across both engines). */
export const jsonStringArray: ValueTransformer = {
  to: (value: string[] | undefined) => (value === undefined ? undefined : JSON.stringify(value)),
  from: (value: string | null) => (value ? (JSON.parse(value) as string[]) : []),
};

/**
 * Byte order for a sort key: `COLLATE "C"` on PostgreSQL, as migration 1763700000500 made the `sort_name`
 * columns. SQLite's default collation (BINARY) already is byte order; its schema builder does not compare
 * collations, and a migration that rebuilds such a table on SQLite must leave the collation out (SQLite
 * has no collation named C).
 */
export const BYTE_ORDER = 'C';
