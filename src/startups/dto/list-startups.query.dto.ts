import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_ID } from '../../common/validation/id-param.dto';
import { NoControlCharacters } from '../../common/validation/no-control-characters.decorator';
import { WholeNumber } from '../../common/validation/whole-number.decorator';

export const STARTUP_SORTS = ['name', '-name', 'foundedYear', '-foundedYear'] as const;
export type StartupSort = (typeof STARTUP_SORTS)[number];

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** Past any real list; keeps the value a 32-bit integer that both engines take as OFFSET. */
export const MAX_OFFSET = 2_147_483_647;

/**
 * `GET /startups` query: paging caps and defaults live here, not in the controller. `@IsInt()` sits
 * lowest because class-validator runs the lowest decorator first: `limit=abc` is reported as not a whole
 * number rather than as out of range.
 */
export class ListStartupsQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Page size.' })
  @IsOptional()
  @WholeNumber()
  @Min(1)
  @Max(MAX_LIMIT)
  @IsInt()
  limit: number = DEFAULT_LIMIT;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'How many startups to skip.' })
  @IsOptional()
  @WholeNumber()
  @Min(0)
  @Max(MAX_OFFSET)
  @IsInt()
  offset: number = 0;

  // No `example` on the filters: Swagger UI's "Try it out" would fill it in and filter the first call.
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_ID, description: 'Only startups of this industry (an id from `GET /industries`, e.g. `9`).' })
  @IsOptional()
  @WholeNumber()
  @Min(1)
  @Max(MAX_ID)
  @IsInt()
  industryId?: number;

  @ApiPropertyOptional({
    maxLength: 200,
    description:
      'Search in the name, ignoring case and accents (`KAHVE`, `kahvé` and `Kahve` are the same; `İSTANBUL`, `Istanbul` and `ıstanbul` find "istanbul"). ' +
      'A term of 3 characters or more matches anywhere in the name (`lojist` finds "Çorlu Lojistik"); a term of 1 or 2 characters matches ' +
      'the start of the name (`ak` finds "Akılkale", not "Bulut Akademi"). `%`, `_` and `"` match themselves. Leading and trailing spaces ' +
      'are ignored; an empty `q` matches every startup. `meta.total` counts every match.',
  })
  @IsOptional()
  @MaxLength(200)
  @NoControlCharacters()
  @IsString()
  q?: string;

  @ApiPropertyOptional({
    enum: STARTUP_SORTS,
    default: 'name',
    description:
      'Sort order; `-` for descending. `name` ignores case and accents, the same on every database: `Healthtech` before `HR Tech`, ' +
      '`Çorlu` beside `Corlu`, the Turkish `ı`/`I`/`İ` as `i`. Ties are broken by id, so pages are stable.',
  })
  @IsOptional()
  @IsIn(STARTUP_SORTS)
  sort: StartupSort = 'name';
}
