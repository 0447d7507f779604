import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { EpochColumn, jsonStringArray, scopeList } from '../database/columns';
import { User } from '../users/user.entity';

/**
 * The default the migrations wrote (`DEFAULT false`), as an SQL expression: SQLite reports it as `false`,
 * and TypeORM would write the value `false` as `0` there and see a difference.
 */
const FALSE = () => 'false';

export const CLIENT_TYPES = ['confidential', 'public'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

/** OpenID Connect Dynamic Client Registration 1.0 §2 `application_type`, as RFC 7591 clients send it. */
export const APPLICATION_TYPES = ['web', 'native'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

/** RFC 7591 §2 `token_endpoint_auth_method` values this server supports (discovery's `token_endpoint_auth_methods_supported`). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/**
 * Where a client's registration comes from: `registered` with the CLI or in the developer portal, or
 * `metadata_document`, the Client ID Metadata Document at the URL that is its `client_id`
 * (docs/integrate-with-oauth.md, "Clients identified by a URL").
 */
export type ClientSource = 'registered' | 'metadata_document';

/** A registered OAuth client (RFC 6749 §2). */
@Entity({ name: 'oauth_clients' })
@Index('idx_oauth_clients_owner', ['ownerId'])
export class Client {
  @PrimaryGeneratedColumn()
  id: number;

  /** The public identifier (RFC 6749 §2.2): `sp_client_…`, or the URL of a client's metadata document. */
  @Column({ name: 'client_id', type: 'varchar', length: 255, unique: true })
  clientId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 20 })
  type: ClientType;

  /** SHA-256 of the secret, hex; null for public clients. */
  @Column({ name: 'secret_hash', type: 'varchar', length: 64, nullable: true })
  secretHash: string | null;

  /** Registered redirect URIs, compared by exact string equality (RFC 9700 §4.1.3). */
  @Column({ name: 'redirect_uris', type: 'text', transformer: jsonStringArray })
  redirectUris: string[];

  /** The scopes this client may ever request. */
  @Column({ type: 'text', transformer: scopeList })
  scopes: string[];

  @Column(EpochColumn({ name: 'created_at' }))
  createdAt: number;

  /**
   * The algorithm of its ID tokens (OpenID Connect Registration `id_token_signed_response_alg`):
   * RS256 unless registered for ES256 (`clients:create --id-token-alg ES256`).
   */
  @Column({ name: 'id_token_signed_response_alg', type: 'varchar', length: 8, default: 'RS256' })
  idTokenSignedResponseAlg: 'RS256' | 'ES256';

  /** The user who made it in the developer portal (README.md, Your account); null when an operator made it with the CLI. */
  @Column({ name: 'owner_id', type: 'integer', nullable: true })
  // A user's applications go with the user; the name PostgreSQL gave it (1763700000200), and SQLite since 1790000000951.
  @ForeignKey(() => User, { name: 'oauth_clients_owner_id_fkey', onDelete: 'CASCADE' })
  ownerId: number | null;

  /**
   * Whether the operator vouches for it (docs/integrate-with-oauth.md, "Verified and unverified
   * applications"): true for a CLI client and after `clients:verify`; false for one registered in the
   * developer portal until then. An unverified application's consent page says so, and its errors are
   * not redirected to it automatically (RFC 9700 §4.11.2).
   */
  @Column({ type: 'boolean', default: FALSE })
  verified: boolean;

  /**
   * Registered with `--require-par` (docs/integrate-with-oauth.md, "Pushed authorization requests"): its
   * authorization requests must be pushed first (RFC 9126 §5 `require_pushed_authorization_requests`);
   * a plain one is refused with `invalid_request`.
   */
  @Column({ name: 'require_par', type: 'boolean', default: FALSE })
  requirePar: boolean;

  /**
   * Whether it may use the Device Authorization Grant (RFC 8628; `clients:create --device-flow`, the
   * portal's `device_flow` checkbox). Off by default: any other client gets `unauthorized_client`.
   */
  @Column({ name: 'device_flow', type: 'boolean', default: FALSE })
  deviceFlow: boolean;

  /**
   * SHA-256 (hex) of the registration access token of a client registered at `POST /oauth/register`
   * (RFC 7591 §3.2.1), checked in constant time by its management endpoint (RFC 7592). Null for every
   * other client (CLI, portal), which RFC 7592 cannot manage.
   */
  @Column({ name: 'registration_access_token_hash', type: 'varchar', length: 64, nullable: true })
  registrationAccessTokenHash: string | null;

  /** Registered dynamically: `web` or `native` (docs/integrate-with-oauth.md, "Register a client dynamically"); null otherwise. */
  @Column({ name: 'application_type', type: 'varchar', length: 10, nullable: true })
  applicationType: ApplicationType | null;

  /** Registered dynamically: the RFC 7591 §2 `token_endpoint_auth_method` it asked for; null otherwise. */
  @Column({ name: 'token_endpoint_auth_method', type: 'varchar', length: 30, nullable: true })
  tokenEndpointAuthMethod: TokenEndpointAuthMethod | null;

  /** Registered dynamically: RFC 7591 §2 `client_uri`, the application's home page. */
  @Column({ name: 'client_uri', type: 'varchar', length: 2000, nullable: true })
  clientUri: string | null;

  /** Registered dynamically: RFC 7591 §2 `logo_uri`. Kept and returned to the client, never shown on a page. */
  @Column({ name: 'logo_uri', type: 'varchar', length: 2000, nullable: true })
  logoUri: string | null;

  /** When a user first allowed it anything (a consent given); null while none has. A dynamically registered client never authorized is purged after 30 days. */
  @Column(EpochColumn({ name: 'authorized_at', nullable: true }))
  authorizedAt: number | null;

  /** `metadata_document`: a client known by the document at its `client_id` URL, unverified and public. */
  @Column({ type: 'varchar', length: 20, default: 'registered' })
  source: ClientSource;

  /** The last valid metadata document fetched, as JSON; null for a registered client. */
  @Column({ name: 'metadata_document', type: 'text', nullable: true })
  metadataDocument: string | null;

  @Column(EpochColumn({ name: 'metadata_fetched_at', nullable: true }))
  metadataFetchedAt: number | null;
}
