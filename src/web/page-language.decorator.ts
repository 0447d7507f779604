import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Language, requestLanguage } from '../common/i18n/language';

/** The language the page is written in: the request's, by the one rule of requestLanguage. */
export const PageLanguage = createParamDecorator((_data: unknown, context: ExecutionContext): Language => requestLanguage(context.switchToHttp().getRequest<FastifyRequest>()));
