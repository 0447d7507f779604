/** A page of a list. The envelope (EnvelopeInterceptor) answers it as `{ data: items, meta: { total, limit, offset } }`. */
export class Paginated<T> {
  constructor(
    readonly items: T[],
    readonly total: number,
    readonly limit: number,
    readonly offset: number,
  ) {}
}
