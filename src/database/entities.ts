import { SecurityEvent } from '../account/events/security-event.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { Client } from '../clients/client.entity';
import { Industry } from '../industries/industry.entity';
import { AccessToken } from '../oauth/entities/access-token.entity';
import { AuthorizationCode } from '../oauth/entities/authorization-code.entity';
import { Consent } from '../oauth/entities/consent.entity';
import { RefreshToken } from '../oauth/entities/refresh-token.entity';
import { SignInThrottle } from '../oauth/entities/sign-in-throttle.entity';
import { Startup } from '../startups/startup.entity';
import { User } from '../users/user.entity';
import { InitialSchema1763700000000 } from './migrations/1763700000000-initial-schema';
import { SeedIndustries1763700000001 } from './migrations/1763700000001-seed-industries';
import { StartupsSearchIndex1763700000002 } from './migrations/1763700000002-startups-search-index';
import { SecurityEvents1763700000100 } from './migrations/1763700000100-security-events';
import { AccessTokensWithoutUser1763700000400 } from './migrations/1763700000400-access-tokens-without-user';
import { NameSortKeys1763700000500 } from './migrations/1763700000500-name-sort-keys';
import { StartupsTrigramSearch1763700000501 } from './migrations/1763700000501-startups-trigram-search';

export const ENTITIES = [User, Industry, Startup, ApiKey, Client, AuthorizationCode, RefreshToken, AccessToken, Consent, SignInThrottle, SecurityEvent];

/** In order. A new migration is added here as well as in the folder. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  SeedIndustries1763700000001,
  StartupsSearchIndex1763700000002,
  SecurityEvents1763700000100,
  AccessTokensWithoutUser1763700000400,
  NameSortKeys1763700000500,
  StartupsTrigramSearch1763700000501,
];
