import { Command } from 'nest-commander';
import { CliCommand } from '../cli/cli-command';
import { TokenPurgeService } from './token-purge.service';

@Command({ name: 'tokens:purge', description: 'Delete expired authorization codes, access tokens, refresh tokens, signed-out sessions, unconfirmed sign-ups and mailed links, security events older than 90 days, and dynamically registered clients no user authorized within 30 days' })
export class PurgeTokensCommand extends CliCommand {
  constructor(private readonly purger: TokenPurgeService) {
    super();
  }

  protected async execute(): Promise<void> {
    const result = await this.purger.purge();
    this.output(result, `Purged ${result.codes} codes, ${result.accessTokens} access tokens, ${result.refreshTokens} refresh tokens, ${result.securityEvents} security events, ${result.endedSessions} signed-out sessions, ${result.dpopProofs} used DPoP proofs, ${result.pendingSignUps} unconfirmed sign-ups, ${result.mailLinks} expired mailed links, ${result.unusedRegistrations} dynamically registered clients never authorized`);
  }
}
