import { Injectable, ValidationPipe } from '@nestjs/common';
import type * as z from 'zod/v4';
import type { BearerPrincipal } from '../auth/principal';
import { IdParamDto } from '../common/validation/id-param.dto';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { createValidationPipe } from '../common/validation/validation.pipe';
import { IndustriesService } from '../industries/industries.service';
import { MeService } from '../me/me.service';
import { ListStartupsQueryDto } from '../startups/dto/list-startups.query.dto';
import { StartupsService } from '../startups/startups.service';
import { inputSchemaOf } from './input-schema';
import { OUTPUT_SCHEMAS } from './output-schemas';
import { scopesOfTool, ToolName } from './tool-scopes';

/** One tool of the MCP endpoint: what a client lists, and the API route's service call it makes. */
export interface McpTool {
  name: ToolName;
  title: string;
  description: string;
  /** The scopes of its API route (tool-scopes.ts). */
  scopes: string[];
  inputSchema: z.ZodType;
  outputSchema: z.ZodType;
  /** The route's result for these arguments (a DTO, a list, or a Paginated page), as its controller returns it. */
  run(args: unknown, principal: BearerPrincipal): Promise<unknown>;
}

/**
 * The tools of /mcp, each the twin of one public-API route (docs/agents.md): it validates its arguments with
 * the route's query or path DTO through the API's validation pipe, and calls the same service method the
 * route's controller calls, so a tool answers exactly what its route answers, with the same limits and errors.
 */
@Injectable()
export class McpTools {
  readonly all: readonly McpTool[];
  private readonly pipe: ValidationPipe = createValidationPipe();

  constructor(industries: IndustriesService, startups: StartupsService, me: MeService) {
    this.all = [
      this.tool('list_industries', {
        title: 'List industries',
        description: 'Every industry a startup can belong to, ordered by name (GET /api/public/v1/industries). Takes no arguments.',
        input: NoQueryDto,
        run: async (args) => {
          await this.validate(args, NoQueryDto, 'query');
          return industries.list();
        },
      }),
      this.tool('search_startups', {
        title: 'Search startups',
        description:
          'A page of startups, with the total count in `meta` (GET /api/public/v1/startups): filter by industry (`industryId`, from list_industries), ' +
          'search by name (`q`), sort by name or founding year (`sort`), page with `limit` (1–100, default 20) and `offset`.',
        input: ListStartupsQueryDto,
        run: async (args) => startups.list(await this.validate(args, ListStartupsQueryDto, 'query')),
      }),
      this.tool('get_startup', {
        title: 'Get a startup',
        description: 'One startup by its id (GET /api/public/v1/startups/{id}); an unknown id is the error NOT_FOUND.',
        input: IdParamDto,
        run: async (args) => startups.findById((await this.validate(args, IdParamDto, 'param')).id),
      }),
      this.tool('get_me', {
        title: 'The signed-in user',
        description: 'The id, name and email of the user who authorized the access token (GET /api/public/v1/me). Takes no arguments.',
        input: NoQueryDto,
        run: async (args, principal) => {
          await this.validate(args, NoQueryDto, 'query');
          return me.profile(principal.userId);
        },
      }),
    ];
  }

  private tool(
    name: ToolName,
    definition: { title: string; description: string; input: new () => object; run: McpTool['run'] },
  ): McpTool {
    const scopes = scopesOfTool(name);
    const needs = scopes.length > 0 ? ` Needs the scope ${scopes.map((s) => `\`${s}\``).join(' and ')}.` : '';
    return {
      name,
      title: definition.title,
      description: definition.description + needs,
      scopes,
      inputSchema: inputSchemaOf(definition.input),
      outputSchema: OUTPUT_SCHEMAS[name],
      run: definition.run,
    };
  }

  /** The arguments as the route's DTO, or VALIDATION_ERROR as the route would answer them (the global pipe's rules). */
  private async validate<T extends object>(args: unknown, dto: new () => T, type: 'query' | 'param'): Promise<T> {
    return (await this.pipe.transform(args ?? {}, { type, metatype: dto, data: undefined })) as T;
  }
}
