import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/decorators/public.decorator';
import { SkipEnvelope } from '../common/envelope/skip-envelope.decorator';
import { PAGE_ERRORS } from '../web/page-errors';
import { VIEWS_ROOT } from '../web/views';

/** The browser part of SimpleWebAuthn, as published (its UMD bundle defines `SimpleWebAuthnBrowser`). */
const WEBAUTHN = readFileSync(join(dirname(require.resolve('@simplewebauthn/browser')), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
const PASSKEYS = readFileSync(join(VIEWS_ROOT, 'scripts', 'passkeys.js'), 'utf8');


/**
 * The pages' only script files, served by the service itself (no CDN): SimpleWebAuthn's browser bundle
 * and the few lines that drive it on the sign-in and security pages.
 */
@Controller('assets')
@Public()
@SkipEnvelope({ errors: PAGE_ERRORS })
@ApiExcludeController()
export class PasskeyScriptsController {
  @Get('webauthn.js')
  webauthn(@Res() reply: FastifyReply): void {
    send(reply, WEBAUTHN);
  }

  @Get('passkeys.js')
  passkeys(@Res() reply: FastifyReply): void {
    send(reply, PASSKEYS);
  }
}

function send(reply: FastifyReply, script: string): void {
  void reply.status(200).headers({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' }).send(script);
}
