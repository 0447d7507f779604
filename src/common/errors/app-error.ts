import { ErrorCode, statusOf } from './error-codes';

export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `limit` or `body.redirect_uri`. */
  field: string;
  /** class-validator constraint name (`min`, `isInt`, `whitelistValidation`, …), rendered per language. */
  constraint: string;
  /** The constraint's arguments, e.g. `[1]` for `min`. */
  args?: unknown[];
}

/**
 * The error every service throws. It carries a catalogue code; the global filter turns it into the
 * envelope, the status and the message in the negotiated language.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly options: {
      details?: ValidationIssue[];
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(code, { cause: options.cause });
    this.name = 'AppError';
    this.status = statusOf(code);
  }

  get details(): ValidationIssue[] | undefined {
    return this.options.details;
  }

  get headers(): Record<string, string> {
    return this.options.headers ?? {};
  }
}
