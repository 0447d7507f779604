import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IndustriesController } from './industries.controller';
import { IndustriesRepository } from './industries.repository';
import { IndustriesService } from './industries.service';
import { Industry } from './industry.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Industry])],
  controllers: [IndustriesController],
  providers: [IndustriesRepository, IndustriesService],
  exports: [IndustriesRepository, IndustriesService],
})
export class IndustriesModule {}
