import { Command } from 'nest-commander';
import { CliCommand } from '../cli/cli-command';
import { TokenPurgeService } from './token-purge.service';

@Command({ name: 'tokens:purge', description: 'Delete expired authorization codes, access tokens, refresh tokens, signed-out sessions, unconfirmed sign-ups and mailed links, and security events older than 90 days' })
export class PurgeTokensCommand extends CliCommand {
  constructor(private readonly purger: TokenPurgeService) {
    super();
  }

  protected async execute(): Promise<void> {
    const result = await this.purger.purge();
    this.output(result, `Purged ${result.codes} codes, ${result.accessTokens} access tokens, ${result.refreshTokens} refresh tokens, ${result.securityEvents} security events, ${result.endedSessions} signed-out sessions, ${result.dpopProofs} used DPoP proofs, ${result.pendingSignUps} unconfirmed sign-ups, ${result.mailLinks} expired mailed links`);
  }
}
