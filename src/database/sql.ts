import { DataSource, QueryRunner } from 'typeorm';

/** Positional parameter `n` (1-based) in the dialect of this connection: `$n` on PostgreSQL, `?` on SQLite. */
export function param(source: DataSource | QueryRunner, n: number): string {
  const type = 'connection' in source ? source.connection.options.type : source.options.type;
  return type === 'postgres' ? `$${n}` : '?';
}

/** `count` comma-separated positional parameters starting at `first`. */
export function params(source: DataSource | QueryRunner, count: number, first = 1): string {
  return Array.from({ length: count }, (_, i) => param(source, first + i)).join(', ');
}
