import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ConfigType } from '@nestjs/config';
import { appConfig } from '../../config/configuration';
import { ErrorEnvelopeDto, PageMetaDto } from './envelope.schemas';

/** The client the interactive reference uses for "Authorize" (created with the demo data). */
export const REFERENCE_CLIENT_ID = 'api-reference';

/**
 * The scopes of the "Authorize" dialog, each with its description (`Record<scope, description>`). The
 * module that owns the scope catalogue provides it under this token; the reference does not know it.
 */
export const OPENAPI_SCOPES = Symbol('OPENAPI_SCOPES');

function scopesOf(app: INestApplication): Record<string, string> {
  try {
    return app.get<Record<string, string>>(OPENAPI_SCOPES, { strict: false });
  } catch {
    return {};
  }
}

/** The platform's name the application was configured with (PLATFORM_NAME), for the reference's titles. */
function platformNameOf(app: INestApplication): string {
  return app.get<ConfigType<typeof appConfig>>(appConfig.KEY, { strict: false }).platformName;
}

/** The OpenAPI document of the application as it is wired (served at /docs-json, exported by `npm run openapi`). */
export function buildOpenApiDocument(app: INestApplication, publicUrl: string): OpenAPIObject {
  const scopes = scopesOf(app);
  const config = new DocumentBuilder()
    .setTitle(`${platformNameOf(app)} API`)
    .setDescription(
      [
        'Programmatic access to the startup platform: a public REST API under `/api/public/v1`, the same as MCP tools for AI agents at `/mcp`, and an OAuth 2.0 authorization server.',
        '',
        'Every success is `{ "data": … }` (lists that page add `meta`); every failure is `{ "error": { "code", "message", "requestId" } }`.',
        'Messages follow `Accept-Language` (`tr` by default, or `en`).',
        '',
        'Use **Authorize** to sign in with the demo account through the authorization-code flow with PKCE, then try the Bearer endpoints.',
      ].join('\n'),
    )
    .setVersion('1.0')
    .addServer(publicUrl)
    // Listed first, so it is the first scheme in the "Authorize" dialog: the one a visitor of /docs uses.
    .addOAuth2(
      {
        type: 'oauth2',
        description: 'Authorization code flow with PKCE (S256).',
        flows: {
          authorizationCode: {
            authorizationUrl: `${publicUrl}/oauth/authorize`,
            tokenUrl: `${publicUrl}/oauth/token`,
            refreshUrl: `${publicUrl}/oauth/token`,
            scopes,
          },
        },
      },
      'oauth2',
    )
    // addBearerAuth() would add `bearerFormat: JWT`; access tokens here are opaque strings.
    .addSecurity('bearer', { type: 'http', scheme: 'bearer', description: 'An opaque OAuth 2.0 access token (RFC 6750), sent as `Authorization: Bearer …`.' })
    // RFC 9449 §7.1: the scheme is registered with IANA as an HTTP authentication scheme.
    .addSecurity('dpop', {
      type: 'http',
      scheme: 'DPoP',
      description:
        'A DPoP-bound access token (RFC 9449), sent as `Authorization: DPoP …` together with a `DPoP` header holding a fresh proof ' +
        '(`typ: dpop+jwt`, signed with ES256, RS256, PS256 or EdDSA by the key the token is bound to; claims `jti`, `htm`, `htu`, `iat`, `ath`). ' +
        'A bound token sent as Bearer, or a missing, wrong or replayed proof: 401 with `WWW-Authenticate: DPoP error="invalid_token"` or `error="invalid_dpop_proof"`.',
    })
    // RFC 7592 §1: the management endpoint of a dynamic registration takes its registration access token.
    .addSecurity('registration', {
      type: 'http',
      scheme: 'bearer',
      description: 'The registration access token a dynamically registered client was given (RFC 7591 §3.2.1), for its `registration_client_uri` only (RFC 7592).',
    })
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'Optional developer key; raises the rate limit.' }, 'api-key')
    .addBasicAuth(
      {
        type: 'http',
        scheme: 'basic',
        description: 'OAuth client authentication `client_secret_basic` (RFC 6749 §2.3.1): the client_id and client_secret of a confidential client.',
      },
      'oauth-client',
    )
    .addTag('industries', 'The industries startups belong to. Open to anyone; an `X-Api-Key` raises the rate limit.')
    .addTag('startups', 'The startup directory. Needs an access token with the `read:startups` scope.')
    .addTag('me', 'The user who authorized the access token. Needs the `profile` scope.')
    .addTag('mcp', 'The MCP endpoint for AI agents (Streamable HTTP, JSON-RPC): the public API\'s routes as tools, with a token for the resource `/mcp`. Answers JSON-RPC, not the envelope.')
    .addTag('oauth', 'The OAuth 2.0 authorization server: discovery (RFC 8414), authorization with PKCE, tokens, revocation (RFC 7009) and introspection (RFC 7662). Answers RFC bodies, not the envelope.')
    .addTag('health', 'Liveness and readiness probes for load balancers and orchestrators.')
    .build();

  return SwaggerModule.createDocument(app, config, { extraModels: [ErrorEnvelopeDto, PageMetaDto] });
}

/**
 * The reference's own Swagger UI plugin. Swagger UI serializes it with `Function.prototype.toString`, so
 * it must not refer to anything outside itself. In the Authorize dialog it leaves out the DPoP scheme
 * (RFC 9449 needs a fresh signed proof per request, which Swagger UI cannot make: it would only say
 * "unsupported scheme"; the document at /docs-json still lists it), and once the dialog is open it puts
 * the scroll at the top and the focus in the first section, the oauth2 one a visitor uses, instead of in
 * the last field Swagger UI gives `autofocus` to.
 */
function referencePlugin(system: any): object {
  const React = system.React;
  const usable = (schema: any) => !(schema.get('type') === 'http' && String(schema.get('scheme')).toLowerCase() === 'dpop');
  return {
    wrapComponents: {
      auths: (Original: any) => (props: any) => {
        const definitions = props.definitions.filter(usable);
        return definitions.size === 0 ? null : React.createElement(Original, Object.assign({}, props, { definitions }));
      },
      authorizationPopup: (Original: any) => (props: any) => {
        React.useEffect(() => {
          const document = (globalThis as any).document;
          const content = document.querySelector('.dialog-ux .modal-ux-content');
          if (content !== null) content.scrollTop = 0;
          document.querySelector('.dialog-ux .auth-container input, .dialog-ux .auth-container button')?.focus({ preventScroll: true });
        }, []);
        return React.createElement(Original, props);
      },
    },
  };
}

/** Swagger UI's own plugin for downloading the document, kept beside referencePlugin (which replaces the default list). */
function downloadUrlPlugin(this: unknown, ...args: unknown[]): unknown {
  return (globalThis as any).SwaggerUIBundle.plugins.DownloadUrl.apply(this, args);
}

/** The HTML of /docs has no viewport; without one a phone lays the reference out 980 px wide. */
const VIEWPORT_SCRIPT = `document.head.insertAdjacentHTML('afterbegin', '<meta name="viewport" content="width=device-width, initial-scale=1">');`;

export function setupOpenApi(app: INestApplication, publicUrl: string): void {
  const document = buildOpenApiDocument(app, publicUrl);
  const scopes = Object.keys(scopesOf(app));
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    // Swagger UI writes the title into its HTML as given: the name is escaped here.
    customSiteTitle: escapeText(`${platformNameOf(app)} API reference`),
    customJsStr: VIEWPORT_SCRIPT,
    swaggerOptions: {
      persistAuthorization: false,
      oauth2RedirectUrl: `${publicUrl}/docs/oauth2-redirect.html`,
      initOAuth: { clientId: REFERENCE_CLIENT_ID, usePkceWithAuthorizationCodeGrant: true, scopes },
      plugins: [downloadUrlPlugin, referencePlugin],
    },
  });
}

/** Text for an HTML element's content: `&`, `<` and `>` as entities. */
function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
