/**
 * The query of a route that takes no query parameters. Declaring it lets the global validation pipe
 * refuse unknown fields there too (VALIDATION_ERROR, docs/using-the-api.md, Envelopes) instead of ignoring them.
 */
export class NoQueryDto {}
