import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/decorators/current-principal.decorator';
import { Scopes } from '../auth/decorators/scopes.decorator';
import type { BearerPrincipal } from '../auth/principal';
import { ApiDataResponse, ApiErrors } from '../common/openapi/envelope.schemas';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { MeDto } from './dto/me.dto';
import { MeService } from './me.service';

@ApiTags('me')
@Controller('api/public/v1/me')
export class MeController {
  constructor(private readonly me: MeService) {}

  @Get()
  @Scopes('profile')
  @ApiOperation({
    summary: 'The signed-in user',
    description: 'The id, name and email of the user who authorized the access token. Needs the `profile` scope.',
  })
  @ApiDataResponse(MeDto, 'The user the token was issued for.')
  @ApiErrors('VALIDATION_ERROR')
  get(@CurrentPrincipal() principal: BearerPrincipal, @Query() _query: NoQueryDto): Promise<MeDto> {
    return this.me.profile(principal.userId);
  }
}
