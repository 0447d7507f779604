import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { appConfig } from '../config/configuration';
import { dpopChallenges, REALM } from './challenges';

/** The platform's protected resources (docs/integrate-with-oauth.md, "Resource indicators"), by their path under PUBLIC_URL. */
export const RESOURCE_PATHS = { api: '/api/public/v1', mcp: '/mcp' } as const;
export type ResourceName = keyof typeof RESOURCE_PATHS;

/** The RFC 6750 §3 challenges of one protected resource, each naming its RFC 9728 §5.1 metadata. */
export interface ResourceChallenges {
  missing: string;
  invalidToken: string;
  insufficientScope(scopes: readonly string[]): string;
  /** RFC 9449 §7.1: DPoP credentials refused, or a DPoP-bound token presented as Bearer. */
  dpopInvalidToken: string;
  /** RFC 9449 §7.1: a DPoP proof that fails a check. */
  dpopInvalidProof: string;
  /**
   * INVALID_API_KEY (docs/using-the-api.md): the key's own scheme, then the Bearer one with the metadata,
   * as every 401 of a protected resource carries it (RFC 9728 §5.1).
   */
  invalidApiKey: string;
}

/**
 * The RFC 6750 §3 protection space of each resource: the public API keeps the realm its clients have always
 * seen; the MCP endpoint has its own, as its tokens are not the API's.
 */
const REALMS: Record<ResourceName, string> = { api: REALM, mcp: 'mcp' };

/**
 * The resources an access token can be for (RFC 8707), their identifiers and their RFC 9728 metadata
 * addresses, all derived from PUBLIC_URL. An access token is for exactly one of them (its audience); a
 * token issued before audiences were stored (`null`) is for the public API, as it always was.
 */
@Injectable()
export class ProtectedResources {
  /** `{PUBLIC_URL}/api/public/v1` */
  readonly api: string;
  /** `{PUBLIC_URL}/mcp` */
  readonly mcp: string;
  /** The challenges of the public API's 401 and 403 answers. */
  readonly apiChallenges: ResourceChallenges;
  /** The challenges of the MCP endpoint's 401 and 403 answers. */
  readonly mcpChallenges: ResourceChallenges;

  /** PUBLIC_URL as the URL parser writes it, so that identifiers compare as canonical() makes them. */
  private readonly base: string;

  constructor(@Inject(appConfig.KEY) app: ConfigType<typeof appConfig>) {
    this.base = normalise(new URL(app.publicUrl));
    this.api = this.identifier('api');
    this.mcp = this.identifier('mcp');
    this.apiChallenges = this.challenges('api');
    this.mcpChallenges = this.challenges('mcp');
  }

  /** The challenges of the resource a request is for (see requestedAt). */
  challengesAt(request: RoutedRequest): ResourceChallenges {
    return isMcpRoute(request) ? this.mcpChallenges : this.apiChallenges;
  }

  /** The resource identifier of a name. */
  identifier(name: ResourceName): string {
    return this.base + RESOURCE_PATHS[name];
  }

  /** RFC 9728 §3.1: the metadata address, `/.well-known/oauth-protected-resource` inserted before the path. */
  metadataUrl(name: ResourceName): string {
    return `${new URL(this.base).origin}/.well-known/oauth-protected-resource${new URL(this.base).pathname.replace(/\/$/, '')}${RESOURCE_PATHS[name]}`;
  }

  /**
   * The resource a request to this service is for, by the route it matched: `/mcp` is the MCP endpoint,
   * every other route that takes a token is the public API's.
   */
  requestedAt(request: RoutedRequest): string {
    return isMcpRoute(request) ? this.mcp : this.api;
  }

  /**
   * The audience a stored token is for, as this instance names it: the MCP endpoint's for an identifier of
   * it, else the public API's (also for a token that predates audiences). A stored identifier was one of
   * this platform's when it was written (canonical()), so it is read by the resource it names, not by the
   * PUBLIC_URL it was written under: instances reached at other addresses, or a PUBLIC_URL that moved,
   * agree on every token's audience.
   */
  audienceOf(stored: string | null): string {
    return stored !== null && stored.endsWith(RESOURCE_PATHS.mcp) ? this.mcp : this.api;
  }

  /**
   * RFC 8707 §2: the resource a `resource` parameter names, as its canonical identifier, or null when it
   * is none of this platform's. It must be an absolute URI without a fragment; a trailing slash and an
   * explicit default port name the same resource (the URL parser drops a default port, and the scheme's
   * and host's case).
   */
  canonical(value: string): string | null {
    if (value.includes('#') || value.length > 2048) return null;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    if (url.search !== '' || url.username !== '' || url.password !== '') return null;
    const normalised = normalise(url);
    return normalised === this.api || normalised === this.mcp ? normalised : null;
  }

  private challenges(name: ResourceName): ResourceChallenges {
    // RFC 9728 §5.1: `resource_metadata` beside the RFC 6750 §3 (and RFC 9449 §7.1) parameters, so a
    // client that met the resource with no token, or a refused one, finds its authorization server from
    // the answer.
    const metadata = `resource_metadata="${this.metadataUrl(name)}"`;
    const realm = REALMS[name];
    const dpop = dpopChallenges(realm);
    return {
      missing: `Bearer realm="${realm}", ${metadata}`,
      invalidToken: `Bearer realm="${realm}", error="invalid_token", ${metadata}`,
      insufficientScope: (scopes) => `Bearer realm="${realm}", error="insufficient_scope", scope="${scopes.join(' ')}", ${metadata}`,
      dpopInvalidToken: `${dpop.invalidToken}, ${metadata}`,
      dpopInvalidProof: `${dpop.invalidProof}, ${metadata}`,
      invalidApiKey: `ApiKey realm="${REALM}", Bearer realm="${realm}", ${metadata}`,
    };
  }
}

/** What the resource of a request is decided by: the path pattern of the route it matched (Fastify's). */
export interface RoutedRequest {
  routeOptions?: { url?: string };
}

/**
 * Whether the request matched a route of the MCP endpoint (RESOURCE_PATHS.mcp). Never the raw request
 * target: the router also takes `/%6Dcp` and the absolute form `http://host/mcp` to that route, and a test
 * of the raw text would judge them the public API's, letting its tokens through (SECURITY.md, "Token
 * replay across resources").
 */
function isMcpRoute(request: RoutedRequest): boolean {
  const route = request.routeOptions?.url ?? '';
  return route === RESOURCE_PATHS.mcp || route.startsWith(`${RESOURCE_PATHS.mcp}/`);
}

/** An absolute URL without its trailing slashes; the parser has already dropped a default port and lowered the scheme and host. */
function normalise(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
