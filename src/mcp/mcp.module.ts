import { Module } from '@nestjs/common';
import { IndustriesModule } from '../industries/industries.module';
import { MeModule } from '../me/me.module';
import { StartupsModule } from '../startups/startups.module';
import { McpOriginGuard } from './mcp-origin.guard';
import { McpTools } from './mcp-tools';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';

/**
 * The MCP endpoint (`/mcp`, docs/agents.md): the public API's routes as MCP tools, calling the services their
 * controllers call, behind the same access guards.
 */
@Module({
  imports: [IndustriesModule, StartupsModule, MeModule],
  controllers: [McpController],
  providers: [McpTools, McpService, McpOriginGuard],
})
export class McpModule {}
