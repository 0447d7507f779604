import { Transform } from 'class-transformer';

/**
 * A whole number as a query or path parameter writes it, in decimal digits with an optional `-` (so that
 * `-1` is told it is below the minimum), or as a JSON number (an MCP tool's argument): made a number;
 * anything else stays as sent, for `@IsInt()` to refuse. (`Number()` alone reads `0x1`, `1e0`, `+1` and
 * ` 1` as 1.)
 */
export const WholeNumber = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value));
