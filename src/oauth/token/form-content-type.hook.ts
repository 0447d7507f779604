import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { assertFormContentType, isClientAuthenticatedPath } from '../client-auth/oauth-form';

/**
 * Fastify would answer a body it has no parser for (XML, multipart) 415 before any handler runs. The
 * client-authenticated OAuth endpoints check the content type first instead, so every such request
 * gets the same 400 `invalid_request` as a JSON body does (RFC 6749 §5.2). The endpoint is the route the
 * request matched, so that `/oauth/%74oken` is judged as `/oauth/token`.
 */
@Injectable()
export class FormContentTypeHook implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('preParsing', async (request) => {
      if (request.method === 'POST' && isClientAuthenticatedPath(request.routeOptions.url ?? '')) assertFormContentType(request);
    });
  }
}
