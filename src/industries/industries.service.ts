import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppError } from '../common/errors/app-error';
import { SerializedEnvelope } from '../common/envelope/serialized-envelope';
import { IndustryDto } from './dto/industry.dto';
import { IndustriesRepository } from './industries.repository';

/**
 * How long a loaded list is served before it is read again. Industries change only through migrations
 * and the `seed` command; a change made in this process calls `invalidate()` and is visible at once, a
 * change made elsewhere (another instance, the CLI) is visible here after at most this long.
 */
export const INDUSTRIES_CACHE_TTL_MS = 60_000;

interface Snapshot {
  loadedAt: number;
  list: IndustryDto[];
  byId: Map<number, IndustryDto>;
  /** The whole `{ "data": [...] }` answer of the list route, serialized once per load. */
  listBody: SerializedEnvelope;
}

/**
 * The industry list, read at most once a minute and answered from memory otherwise: a couple of dozen
 * rows that every listing client asks for, so a request should cost a map lookup, not a query.
 */
@Injectable()
export class IndustriesService {
  private snapshot?: Snapshot;
  private loading?: Promise<Snapshot>;
  private generation = 0;

  constructor(
    private readonly industries: IndustriesRepository,
    private readonly clock: Clock,
  ) {}

  /** Every industry, ordered by name (ties by id), as the serialized `{ data }` envelope. */
  async listBody(): Promise<SerializedEnvelope> {
    return (await this.current()).listBody;
  }

  /** Every industry, ordered by name (ties by id). */
  async list(): Promise<IndustryDto[]> {
    return (await this.current()).list;
  }

  /** One industry, or 404 NOT_FOUND. */
  async findById(id: number): Promise<IndustryDto> {
    const industry = (await this.current()).byId.get(id);
    if (!industry) throw new AppError('NOT_FOUND');
    return industry;
  }

  /** Drops the cached list; the next request reads the table again. Call after changing industries. */
  invalidate(): void {
    this.generation += 1;
    this.snapshot = undefined;
    this.loading = undefined;
  }

  private async current(): Promise<Snapshot> {
    const snapshot = this.snapshot;
    if (snapshot && this.clock.now() - snapshot.loadedAt < INDUSTRIES_CACHE_TTL_MS) return snapshot;
    // Concurrent requests at expiry share one query.
    this.loading ??= this.load();
    return this.loading;
  }

  private async load(): Promise<Snapshot> {
    const generation = this.generation;
    try {
      const list = await this.industries.allByName();
      const snapshot: Snapshot = {
        loadedAt: this.clock.now(),
        list,
        byId: new Map(list.map((industry) => [industry.id, industry])),
        listBody: SerializedEnvelope.of(list),
      };
      // A load that started before an invalidation may hold old rows: answer with it, do not keep it.
      if (generation === this.generation) this.snapshot = snapshot;
      return snapshot;
    } finally {
      if (generation === this.generation) this.loading = undefined;
    }
  }
}
