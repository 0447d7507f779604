import { Module } from '@nestjs/common';
import { HomeController } from './home.controller';

/** The front page at `/` (README.md, Pages). */
@Module({ controllers: [HomeController] })
export class HomeModule {}
