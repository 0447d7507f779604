/** What a link's token turned out to be; `throttled` when this IP guessed too many (nothing was looked up). */
export type LinkCheck = { kind: 'valid' } | { kind: 'invalid' } | { kind: 'throttled'; retryAfterSeconds: number };
