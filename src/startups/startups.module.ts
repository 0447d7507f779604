import { Module } from '@nestjs/common';
import { IndustriesModule } from '../industries/industries.module';
import { StartupsSeederService } from './startups-seeder.service';
import { StartupsController } from './startups.controller';
import { StartupsService } from './startups.service';

/** Startup reads for the public API, and the demo-data seeder (used by `cli seed` and the start-up seed). */
@Module({
  imports: [IndustriesModule],
  controllers: [StartupsController],
  providers: [StartupsService, StartupsSeederService],
  exports: [StartupsService, StartupsSeederService],
})
export class StartupsModule {}
