import { Injectable } from '@nestjs/common';
import { ProtectedResources } from '../auth/protected-resources';
import { AppError } from '../common/errors/app-error';
import { UsersService } from '../users/users.service';
import { MeDto } from './dto/me.dto';

@Injectable()
export class MeService {
  constructor(
    private readonly users: UsersService,
    private readonly resources: ProtectedResources,
  ) {}

  async profile(userId: number | null): Promise<MeDto> {
    // A client-credentials token acts for its client alone: there is no user to describe. Such a token
    // never holds `profile` (docs/integrate-with-oauth.md), so the guard already refused it; this holds even if it did.
    if (userId === null) throw new AppError('INSUFFICIENT_SCOPE', { headers: { 'www-authenticate': this.resources.apiChallenges.insufficientScope(['profile']) } });
    const user = await this.users.findProfile(userId);
    // Deleting a user deletes their tokens; if one slipped through, the token no longer stands for anyone.
    if (!user) throw new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': this.resources.apiChallenges.invalidToken } });
    return { id: user.id, name: user.name, email: user.email };
  }
}
