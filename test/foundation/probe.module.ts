import { Body, Controller, Get, Module, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Public } from '../../src/auth/decorators/public.decorator';

class ProbeQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsIn(['name', '-name'])
  sort?: string;
}

class ProbeBody {
  @IsString()
  @MaxLength(10)
  name: string;
}

/** Routes that exist only in tests, to drive every branch of the pipeline through real HTTP. */
@Controller('api/public/v1/probe')
class ProbeController {
  @Get()
  @Public()
  list(@Query() query: ProbeQuery) {
    return { limit: query.limit ?? 20, sort: query.sort ?? 'name' };
  }

  @Post()
  @Public()
  create(@Body() body: ProbeBody) {
    return { name: body.name };
  }

  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('SELECT secret FROM users -- at /srv/app/src/probe.ts:42');
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
