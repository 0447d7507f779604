import { Controller, Get } from '@nestjs/common';
import { OptionalApiKey } from '../../src/auth/decorators/optional-api-key.decorator';
import { Public } from '../../src/auth/decorators/public.decorator';
import { Scopes } from '../../src/auth/decorators/scopes.decorator';

/** One route for each access level a controller can declare, for the guards' specs to run against. */
@Controller()
export class GuardedRoutesController {
  @Get('open')
  @Public()
  open() {}

  @Get('keyed')
  @OptionalApiKey()
  keyed() {}

  @Get('startups')
  @Scopes('read:startups')
  startups() {}

  /** Declares nothing, so it gets the default: a Bearer token. */
  @Get('undeclared')
  undeclared() {}
}
