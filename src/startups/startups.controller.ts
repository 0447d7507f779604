import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scopes } from '../auth/decorators/scopes.decorator';
import { Paginated } from '../common/envelope/paginated';
import { ApiDataResponse, ApiErrors, ApiListResponse } from '../common/openapi/envelope.schemas';
import { IdParamDto } from '../common/validation/id-param.dto';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { ListStartupsQueryDto } from './dto/list-startups.query.dto';
import { StartupDto } from './dto/startup.dto';
import { StartupsService } from './startups.service';

@ApiTags('startups')
@Controller('api/public/v1/startups')
export class StartupsController {
  constructor(private readonly startups: StartupsService) {}

  @Get()
  @Scopes('read:startups')
  @ApiOperation({
    summary: 'List startups',
    description:
      'A page of startups with the total count in `meta`. Filter by industry and search by name; sort by name or founding year. ' +
      'Needs an access token with the `read:startups` scope.',
  })
  @ApiListResponse(StartupDto, { paged: true, description: 'One page of startups; `meta.total` counts every match.' })
  @ApiErrors('VALIDATION_ERROR')
  list(@Query() query: ListStartupsQueryDto): Promise<Paginated<StartupDto>> {
    return this.startups.list(query);
  }

  @Get(':id')
  @Scopes('read:startups')
  @ApiOperation({ summary: 'Get a startup', description: 'One startup by its id. Needs an access token with the `read:startups` scope.' })
  @ApiDataResponse(StartupDto, 'The startup.')
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  get(@Param() params: IdParamDto, @Query() _query: NoQueryDto): Promise<StartupDto> {
    return this.startups.findById(params.id);
  }
}
