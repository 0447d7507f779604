import { Command, Option } from 'nest-commander';
import { CliCommand, CliError } from '../cli/cli-command';
import { nameOption } from '../users/account-options';
import { API_KEY_TIERS, ApiKey, ApiKeyTier } from './api-key.entity';
import { ApiKeysService } from './api-keys.service';

const iso = (epochMillis: number | null) => (epochMillis === null ? null : new Date(epochMillis).toISOString());

@Command({ name: 'api-keys:create', description: 'Create an API key; the key is printed once and never stored' })
export class CreateApiKeyCommand extends CliCommand {
  constructor(private readonly apiKeys: ApiKeysService) {
    super();
  }

  @Option({ flags: '--name <name>', description: 'Who or what the key is for' })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--tier <tier>', description: `Rate-limit tier: ${API_KEY_TIERS.join(' or ')} (default standard)` })
  parseTier(value: string): string {
    return value;
  }

  protected async execute(_params: string[], options: Record<string, unknown>): Promise<void> {
    const name = nameOption(this.required(options, 'name').trim());
    const tier = (options.tier ?? 'standard') as string;
    if (!(API_KEY_TIERS as readonly string[]).includes(tier)) {
      throw new CliError(`Invalid --tier: "${tier}" (use ${API_KEY_TIERS.join(' or ')})`);
    }
    const { apiKey, key } = await this.apiKeys.create({ name, tier: tier as ApiKeyTier });
    this.output(
      { id: apiKey.id, key },
      `Created ${apiKey.tier} API key ${apiKey.id} (${apiKey.name}). It is shown only this once:\n${key}`,
    );
  }
}

@Command({ name: 'api-keys:list', description: 'List API keys (never the keys themselves)' })
export class ListApiKeysCommand extends CliCommand {
  constructor(private readonly apiKeys: ApiKeysService) {
    super();
  }

  protected async execute(): Promise<void> {
    const keys = await this.apiKeys.list();
    const apiKeys = keys.map((k: ApiKey) => ({
      id: k.id,
      name: k.name,
      tier: k.tier,
      prefix: k.prefix,
      createdAt: iso(k.createdAt),
      lastUsedAt: iso(k.lastUsedAt),
      revokedAt: iso(k.revokedAt),
      // The user who made it in the developer portal; null for an operator's key.
      ownerId: k.ownerId,
    }));
    const lines = apiKeys.map(
      (k) =>
        `${k.id}\t${k.prefix}…\t${k.tier}\t${k.name}\tcreated ${k.createdAt}` +
        `\tlast used ${k.lastUsedAt ?? 'never'}${k.revokedAt ? `\trevoked ${k.revokedAt}` : ''}${k.ownerId === null ? '' : `\towner user ${k.ownerId}`}`,
    );
    this.output({ apiKeys }, lines.length ? lines.join('\n') : 'No API keys.');
  }
}

@Command({ name: 'api-keys:revoke', arguments: '<id>', description: 'Revoke an API key; it is refused from the next request on' })
export class RevokeApiKeyCommand extends CliCommand {
  constructor(private readonly apiKeys: ApiKeysService) {
    super();
  }

  protected async execute(params: string[]): Promise<void> {
    const raw = params[0] ?? '';
    if (!/^[1-9]\d{0,15}$/.test(raw)) throw new CliError(`Invalid API key id: "${raw}"`);
    // Ids are 32-bit integers; a larger number names no key (and must not reach PostgreSQL as one).
    const id = Number(raw);
    const result = id <= 2_147_483_647 ? await this.apiKeys.revoke(id) : null;
    if (!result) throw new CliError(`No API key with id ${raw}`);
    const { apiKey, alreadyRevoked } = result;
    this.output(
      { id: apiKey.id, revoked: true },
      alreadyRevoked
        ? `API key ${apiKey.id} was already revoked (${iso(apiKey.revokedAt)})`
        : `Revoked API key ${apiKey.id} (${apiKey.name})`,
    );
  }
}

export const API_KEY_COMMANDS = [CreateApiKeyCommand, ListApiKeysCommand, RevokeApiKeyCommand];
