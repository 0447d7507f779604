import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { HomeController } from './home.controller';

/** The front page at `/` and the addresses people type (README.md, Pages). */
@Module({ controllers: [HomeController] })
export class HomeModule implements OnModuleInit {
  constructor(private readonly adapter: HttpAdapterHost) {}

  onModuleInit(): void {
    const server = this.adapter.httpAdapter?.getInstance<FastifyInstance>();
    server?.addHook('onRequest', HomeController.accountWithSlash);
  }
}
