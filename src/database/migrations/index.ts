import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { SeedIndustries1763700000001 } from './1763700000001-seed-industries';
import { StartupsSearchIndex1763700000002 } from './1763700000002-startups-search-index';
import { SecurityEvents1763700000100 } from './1763700000100-security-events';
import { ConnectedApps1763700000101 } from './1763700000101-connected-apps';
import { ClientAndKeyOwners1763700000200 } from './1763700000200-client-and-key-owners';
import { OpenIdConnect1763700000300 } from './1763700000300-openid-connect';
import { SigningKeys1763700000350 } from './1763700000350-signing-keys';
import { AccessTokensWithoutUser1763700000400 } from './1763700000400-access-tokens-without-user';
import { NameSortKeys1763700000500 } from './1763700000500-name-sort-keys';
import { StartupsTrigramSearch1763700000501 } from './1763700000501-startups-trigram-search';
import { StartupsSortNameStatistics1763700000502 } from './1763700000502-startups-sort-name-statistics';
import { EndedSessions1763700000600 } from './1763700000600-ended-sessions';
import { ClientVerified1790000000301 } from './1790000000301-client-verified';
import { DeviceAuthorizations1790000000501 } from './1790000000501-device-authorizations';
import { PushedAuthorizationRequests1790000000601 } from './1790000000601-pushed-authorization-requests';
import { Dpop1790000000701 } from './1790000000701-dpop';
import { SecondFactor1790000000901 } from './1790000000901-second-factor';
import { AuthenticationMethods1790000000902 } from './1790000000902-authentication-methods';
import { Passkeys1790000000903 } from './1790000000903-passkeys';
import { OwnerForeignKeyNames1790000000951 } from './1790000000951-owner-foreign-key-names';
import { MailOutbox1790000002901 } from './1790000002901-mail-outbox';
import { PendingRegistrations1790000002902 } from './1790000002902-pending-registrations';
import { AccountMailTokens1790000002903 } from './1790000002903-account-mail-tokens';
import { EmailVerified1790000002904 } from './1790000002904-email-verified';
import { CanonicalEmailAddresses1790000003201 } from './1790000003201-canonical-email-addresses';
import { PendingRegistrationsPerSignUp1790000003401 } from './1790000003401-pending-registrations-per-sign-up';
import { AuthenticationContext1790000003402 } from './1790000003402-authentication-context';
import { TokenAudiences1790000003501 } from './1790000003501-token-audiences';
import { ClientMetadataDocuments1790000003601 } from './1790000003601-client-metadata-documents';
import { DynamicClientRegistration1790000003701 } from './1790000003701-dynamic-client-registration';
import { FinalSigma1790000003801 } from './1790000003801-final-sigma';
import { ConsentRedirectUris1790000003901 } from './1790000003901-consent-redirect-uris';

/**
 * Every migration of the schema, in the order they run: the one list a new migration is added to (its
 * file goes in this folder). Entities are not listed anywhere central: each feature module registers
 * its own with `TypeOrmModule.forFeature`, and the connection loads them (`autoLoadEntities`).
 */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  SeedIndustries1763700000001,
  StartupsSearchIndex1763700000002,
  SecurityEvents1763700000100,
  ConnectedApps1763700000101,
  ClientAndKeyOwners1763700000200,
  OpenIdConnect1763700000300,
  SigningKeys1763700000350,
  AccessTokensWithoutUser1763700000400,
  NameSortKeys1763700000500,
  StartupsTrigramSearch1763700000501,
  StartupsSortNameStatistics1763700000502,
  EndedSessions1763700000600,
  ClientVerified1790000000301,
  DeviceAuthorizations1790000000501,
  PushedAuthorizationRequests1790000000601,
  Dpop1790000000701,
  SecondFactor1790000000901,
  AuthenticationMethods1790000000902,
  Passkeys1790000000903,
  OwnerForeignKeyNames1790000000951,
  MailOutbox1790000002901,
  PendingRegistrations1790000002902,
  AccountMailTokens1790000002903,
  EmailVerified1790000002904,
  CanonicalEmailAddresses1790000003201,
  PendingRegistrationsPerSignUp1790000003401,
  AuthenticationContext1790000003402,
  TokenAudiences1790000003501,
  ClientMetadataDocuments1790000003601,
  DynamicClientRegistration1790000003701,
  FinalSigma1790000003801,
  ConsentRedirectUris1790000003901,
];
