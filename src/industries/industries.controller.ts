import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OptionalApiKey } from '../auth/decorators/optional-api-key.decorator';
import { SerializedEnvelope } from '../common/envelope/serialized-envelope';
import { ApiDataResponse, ApiErrors, ApiListResponse } from '../common/openapi/envelope.schemas';
import { IdParamDto } from '../common/validation/id-param.dto';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { IndustryDto } from './dto/industry.dto';
import { IndustriesService } from './industries.service';

@ApiTags('industries')
@ApiExtraModels(IndustryDto)
@Controller('api/public/v1/industries')
export class IndustriesController {
  constructor(private readonly industries: IndustriesService) {}

  @Get()
  @OptionalApiKey()
  @ApiOperation({
    summary: 'List industries',
    description:
      'Every industry a startup can belong to, ordered by name. Open to anyone; an `X-Api-Key` raises the rate limit. ' +
      'The list changes rarely and may be up to a minute old.',
  })
  @ApiListResponse(IndustryDto, { description: 'All industries, ordered by name.' })
  @ApiErrors('VALIDATION_ERROR')
  list(@Query() _query: NoQueryDto): Promise<SerializedEnvelope> {
    return this.industries.listBody();
  }

  @Get(':id')
  @OptionalApiKey()
  @ApiOperation({ summary: 'Get an industry', description: 'One industry by its id.' })
  @ApiDataResponse(IndustryDto, 'The industry.')
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  get(@Param() params: IdParamDto, @Query() _query: NoQueryDto): Promise<IndustryDto> {
    return this.industries.findById(params.id);
  }
}
