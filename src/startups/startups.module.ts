import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IndustriesModule } from '../industries/industries.module';
import { Startup } from './startup.entity';
import { StartupsSeederService } from './startups-seeder.service';
import { StartupsController } from './startups.controller';
import { StartupsRepository } from './startups.repository';
import { StartupsService } from './startups.service';

/** Startup reads for the public API, and the demo-data seeder (used by `cli seed` and the start-up seed). */
@Module({
  imports: [TypeOrmModule.forFeature([Startup]), IndustriesModule],
  controllers: [StartupsController],
  providers: [StartupsRepository, StartupsService, StartupsSeederService],
  exports: [StartupsService, StartupsSeederService],
})
export class StartupsModule {}
