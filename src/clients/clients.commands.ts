import { Command, Option } from 'nest-commander';
import { CliCommand, CliError } from '../cli/cli-command';
import { Client } from './client.entity';
import { KNOWN_SCOPES } from '../common/scopes';
import { ClientValidationError, parseClientScopes } from './client-rules';
import { ClientsService, UnknownClientError } from './clients.service';

/** Domain errors become the one stderr line of the CLI (README.md, Commands); anything else stays unexpected. */
async function asCliErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ClientValidationError || error instanceof UnknownClientError) throw new CliError(error.message);
    throw error;
  }
}

function describe(client: Client) {
  return {
    client_id: client.clientId,
    name: client.name,
    type: client.type,
    redirect_uris: client.redirectUris,
    scopes: client.scopes,
    id_token_signed_response_alg: client.idTokenSignedResponseAlg,
    created_at: new Date(client.createdAt).toISOString(),
    // The user who registered it in the developer portal; null for an operator's client.
    owner_id: client.ownerId,
    // Whether the operator vouches for it (clients:verify); CLI clients are verified from the start.
    verified: client.verified,
    // Its authorization requests must be pushed first (RFC 9126 §5).
    require_par: client.requirePar,
    // May use the Device Authorization Grant (RFC 8628): clients:create --device-flow.
    device_flow: client.deviceFlow,
  };
}

@Command({
  name: 'clients:create',
  description: 'Register an OAuth client; prints its client_id and, for a confidential client, its secret (shown once)',
})
export class CreateClientCommand extends CliCommand {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  @Option({ flags: '--name <name>', description: 'Display name, shown on the consent page' })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--redirect-uri <uri>', description: 'A redirect URI, matched exactly; repeat for several' })
  parseRedirectUri(value: string, previous: string[] = []): string[] {
    return [...previous, value];
  }

  @Option({ flags: '--scopes <scopes>', description: `Space-separated scopes the client may request: ${KNOWN_SCOPES.join(', ')}` })
  parseScopes(value: string): string {
    return value;
  }

  @Option({ flags: '--id-token-alg <alg>', description: 'The algorithm of its OpenID Connect ID tokens: RS256 (default) or ES256' })
  parseIdTokenAlg(value: string): string {
    return value;
  }

  @Option({ flags: '--public', description: 'A public client (no secret; PKCE required), e.g. a browser or mobile app' })
  parsePublic(): boolean {
    return true;
  }

  @Option({ flags: '--require-par', description: 'Its authorization requests must be pushed first (POST /oauth/par, RFC 9126)' })
  parseRequirePar(): boolean {
    return true;
  }

  @Option({ flags: '--device-flow', description: 'May sign users in with the Device Authorization Grant (RFC 8628), e.g. a command-line tool or a TV' })
  parseDeviceFlow(): boolean {
    return true;
  }

  protected async execute(_params: string[], options: Record<string, unknown>): Promise<void> {
    const name = this.required(options, 'name');
    const redirectUris = (options.redirectUri as string[] | undefined) ?? [];
    if (redirectUris.length === 0) throw new CliError('Missing required option --redirect-uri');
    const scopes = await asCliErrors(async () => parseClientScopes(this.required(options, 'scopes')));
    const type = options.public === true ? 'public' : 'confidential';
    const alg = options.idTokenAlg ?? 'RS256';
    if (alg !== 'RS256' && alg !== 'ES256') throw new CliError('Invalid --id-token-alg: give RS256 or ES256');
    const { client, secret } = await asCliErrors(() =>
      this.clients.create({ name, redirectUris, scopes, type, idTokenSignedResponseAlg: alg, requirePar: options.requirePar === true, deviceFlow: options.deviceFlow === true }),
    );
    const result: Record<string, string> = { client_id: client.clientId };
    if (secret) result.client_secret = secret;
    this.output(
      result,
      secret
        ? `Created confidential client ${client.clientId}\nclient_secret: ${secret}\nStore the secret now: it is not shown again.`
        : `Created public client ${client.clientId}`,
    );
  }
}

@Command({ name: 'clients:list', description: 'List the registered OAuth clients (never their secrets)' })
export class ListClientsCommand extends CliCommand {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  protected async execute(): Promise<void> {
    const clients = (await this.clients.list()).map(describe);
    const human = clients.length
      ? clients.map((c) => `${c.client_id}  ${c.type}  ${c.name}  [${c.scopes.join(' ')}]  ${c.redirect_uris.join(' ')}${c.owner_id === null ? '' : `  owner user ${c.owner_id}`}  ${c.verified ? 'verified' : 'unverified'}${c.require_par ? '  requires PAR' : ''}${c.device_flow ? '  device-flow' : ''}`).join('\n')
      : 'No clients.';
    this.output({ clients }, human);
  }
}

@Command({
  name: 'clients:rotate-secret',
  arguments: '<client_id>',
  description: 'Give a confidential client a new secret (shown once); the old one stops working',
})
export class RotateClientSecretCommand extends CliCommand {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  protected async execute([clientId]: string[]): Promise<void> {
    const { client, secret } = await asCliErrors(() => this.clients.rotateSecret(clientId));
    this.output({ client_id: client.clientId, client_secret: secret }, `New secret for ${client.clientId}\nclient_secret: ${secret}`);
  }
}

@Command({
  name: 'clients:delete',
  arguments: '<client_id>',
  description: 'Delete a client together with its authorization codes, tokens and consents',
})
export class DeleteClientCommand extends CliCommand {
  constructor(private readonly clients: ClientsService) {
    super();
  }

  protected async execute([clientId]: string[]): Promise<void> {
    await asCliErrors(() => this.clients.delete(clientId));
    this.output({ client_id: clientId, deleted: true }, `Deleted client ${clientId}`);
  }
}

/**
 * The operator vouches for an application registered in the developer portal, or withdraws that
 * (docs/integrate-with-oauth.md, "Verified and unverified applications"). Takes effect at the next
 * authorization request.
 */
abstract class SetVerifiedCommand extends CliCommand {
  protected abstract readonly clients: ClientsService;
  protected abstract readonly verified: boolean;

  protected async execute([clientId]: string[]): Promise<void> {
    if (!clientId) throw new CliError('Missing argument <client_id>');
    const client = await asCliErrors(() => this.clients.setVerified(clientId, this.verified));
    this.output({ client_id: client.clientId, verified: client.verified }, `Client ${client.clientId} is now ${client.verified ? 'verified' : 'unverified'}`);
  }
}

@Command({
  name: 'clients:verify',
  arguments: '<client_id>',
  description: 'Vouch for a client: its consent page no longer warns, and its errors go back to it directly',
})
export class VerifyClientCommand extends SetVerifiedCommand {
  protected readonly verified = true;

  // Each command declares its own constructor: Nest injects by the decorated class's own parameter types.
  constructor(protected readonly clients: ClientsService) {
    super();
  }
}

@Command({
  name: 'clients:unverify',
  arguments: '<client_id>',
  description: 'Withdraw the vouching: its consent page warns users, and errors stop on a page of this server before going back to it',
})
export class UnverifyClientCommand extends SetVerifiedCommand {
  protected readonly verified = false;

  constructor(protected readonly clients: ClientsService) {
    super();
  }
}

export const CLIENT_COMMANDS = [CreateClientCommand, ListClientsCommand, RotateClientSecretCommand, DeleteClientCommand, VerifyClientCommand, UnverifyClientCommand];
