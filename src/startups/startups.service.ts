import { Injectable } from '@nestjs/common';
import { Paginated } from '../common/envelope/paginated';
import { AppError } from '../common/errors/app-error';
import { ListStartupsQueryDto } from './dto/list-startups.query.dto';
import { StartupDto } from './dto/startup.dto';
import { StartupRow, StartupsRepository } from './startups.repository';

/** Startup reads for the public API, through StartupsRepository. */
@Injectable()
export class StartupsService {
  constructor(private readonly startups: StartupsRepository) {}

  async list(query: ListStartupsQueryDto): Promise<Paginated<StartupDto>> {
    const { rows, total } = await this.startups.page(query);
    return new Paginated(rows.map(toDto), total, query.limit, query.offset);
  }

  /** One startup, or 404 NOT_FOUND. */
  async findById(id: number): Promise<StartupDto> {
    const row = await this.startups.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    return toDto(row);
  }
}

function toDto(row: StartupRow): StartupDto {
  return {
    id: Number(row.id),
    name: row.name,
    slug: row.slug,
    description: row.description,
    website: row.website,
    foundedYear: Number(row.founded_year),
    city: row.city,
    industry: { id: Number(row.industry_id), name: row.industry_name },
  };
}
