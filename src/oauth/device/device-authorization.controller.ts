import { Controller, Inject, Req, Res } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../common/clock';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { INVALID_TARGET, OAUTH_JSON_ERRORS, OAuthError } from '../../common/errors/oauth-error';
import { appConfig } from '../../config/configuration';
import { isKnownScope, isSubset, parseRequestedScope, parseScope } from '../../common/scopes';
import { ApiOAuthErrors, CLIENT_AUTH_DESCRIPTION, DEVICE_AUTHORIZATION_FORM_SCHEMA, DeviceAuthorizationResponseDto } from '../openapi/oauth.schemas';
import { ClientAuthenticatedPost, ClientCaller } from '../client-auth/client-caller';
import { ProtectedResources } from '../../auth/protected-resources';
import { DeviceAuthorizationsService } from './device-authorizations.service';
import { formatUserCode } from './user-code';
import { MFA_ACR } from '../acr';

/** RFC 8628 §3.2 */
export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

@ApiTags('oauth')
@Controller('oauth')
@SkipEnvelope({ errors: OAUTH_JSON_ERRORS })
export class DeviceAuthorizationController {
  constructor(
    private readonly caller: ClientCaller,
    private readonly devices: DeviceAuthorizationsService,
    private readonly clock: Clock,
    private readonly resources: ProtectedResources,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  @ClientAuthenticatedPost('device_authorization')
  @ApiOperation({
    summary: 'Device authorization endpoint (RFC 8628 §3.1)',
    description: [
      'Starts the Device Authorization Grant for a device without a browser (a command-line tool, a TV), for a client registered',
      'with `--device-flow` (others get `unauthorized_client`). Optional `scope` among the client\'s registered scopes, all of them by',
      'default. The device shows `user_code` and `verification_uri` (or `verification_uri_complete`, e.g. as a QR code); the user',
      'opens it in a browser, signs in and allows or denies; meanwhile the device polls the token endpoint with',
      '`grant_type=urn:ietf:params:oauth:grant-type:device_code` and `device_code`, no more often than every `interval` seconds.',
      'The codes live DEVICE_CODE_TTL seconds (600 by default). `acr_values` asking for `urn:startup-platform:acr:mfa` is refused',
      '(`invalid_request`): this flow cannot step the user up yet, so read `amr` from the ID token instead.',
      CLIENT_AUTH_DESCRIPTION,
    ].join(' '),
  })
  @ApiBody({ schema: DEVICE_AUTHORIZATION_FORM_SCHEMA })
  @ApiOkResponse({ type: DeviceAuthorizationResponseDto })
  @ApiOAuthErrors('invalid_request', 'invalid_client', 'unauthorized_client', 'invalid_scope', 'invalid_target')
  async authorize(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<DeviceAuthorizationResponse> {
    const { form, client } = await this.caller.identify(request, reply);
    if (!client.deviceFlow) throw new OAuthError('unauthorized_client', 'This client is not allowed the device authorization grant.');
    // RFC 6749 §3.3: without a scope the client's registered scopes apply, as at the authorization endpoint.
    const scope = form.scope === undefined ? [...client.scopes].sort() : parseRequestedScope(form.scope);
    if (scope.length === 0) throw new OAuthError('invalid_scope', 'No scope was requested.');
    if (!scope.every(isKnownScope)) throw new OAuthError('invalid_scope', 'A requested scope is unknown.');
    if (!isSubset(scope, client.scopes)) throw new OAuthError('invalid_scope', 'A requested scope is not allowed for this client.');
    // docs/integrate-with-oauth.md, "Asking for a second factor": refused out loud rather than ignored, so
    // that a device never takes a one-factor sign-in for the two factors it asked for.
    if (form.acr_values !== undefined && parseScope(form.acr_values).includes(MFA_ACR)) {
      throw new OAuthError('invalid_request', `acr_values ${MFA_ACR} is not supported in the device flow; read amr from the ID token instead.`);
    }

    // RFC 8707 §2: the resource the tokens will be for, one of this platform's.
    const resource = form.resource === undefined ? null : this.resources.canonical(form.resource);
    if (resource === null && form.resource !== undefined) throw new OAuthError('invalid_target', INVALID_TARGET);

    const issued = await this.devices.issue(client, scope, resource, this.clock.now());
    const userCode = formatUserCode(issued.userCode);
    const verificationUri = `${this.app.publicUrl}/device`;
    return {
      device_code: issued.deviceCode,
      user_code: userCode,
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?user_code=${userCode}`,
      expires_in: issued.expiresIn,
      interval: issued.interval,
    };
  }
}
