import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { sha256Hex } from '../../common/crypto/secrets';
import { AccessToken } from '../entities/access-token.entity';
import { RefreshToken } from '../entities/refresh-token.entity';

export type FoundToken = { type: 'access_token'; row: AccessToken } | { type: 'refresh_token'; row: RefreshToken };

/**
 * Finds a presented token by its hash. RFC 7009 §2.1 / RFC 7662 §2.1: `token_type_hint` only decides
 * which table is searched first; a wrong or unknown hint never hides a token.
 */
@Injectable()
export class TokenLookup {
  constructor(
    @InjectRepository(AccessToken) private readonly accessTokens: Repository<AccessToken>,
    @InjectRepository(RefreshToken) private readonly refreshTokens: Repository<RefreshToken>,
  ) {}

  async find(token: string, hint: string | undefined): Promise<FoundToken | null> {
    const tokenHash = sha256Hex(token);
    const order: Array<FoundToken['type']> = hint === 'refresh_token' ? ['refresh_token', 'access_token'] : ['access_token', 'refresh_token'];
    for (const type of order) {
      if (type === 'access_token') {
        const row = await this.accessTokens.findOneBy({ tokenHash });
        if (row) return { type, row };
      } else {
        const row = await this.refreshTokens.findOneBy({ tokenHash });
        if (row) return { type, row };
      }
    }
    return null;
  }
}
