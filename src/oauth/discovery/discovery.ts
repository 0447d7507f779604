import { KNOWN_SCOPES, OFFLINE_ACCESS } from '../../common/scopes';
import { DPOP_SIGNING_ALGS } from '../../auth/dpop/dpop-proof';
import { SIGNING_ALGS } from '../../oidc/keys/signing-key.entity';
import { MFA_ACR } from '../acr';

/**
 * RFC 8414 §2 metadata of this authorization server (docs/integrate-with-oauth.md, "Discovery").
 * `registration_endpoint` (RFC 7591) is listed while DYNAMIC_REGISTRATION is `open`.
 */
export function authorizationServerMetadata(issuer: string, options: { registration: boolean } = { registration: true }) {
  const authMethods = ['client_secret_basic', 'client_secret_post', 'none'];
  return {
    issuer,
    ...(options.registration ? { registration_endpoint: `${issuer}/oauth/register` } : {}),
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    // RFC 8628 §4.
    device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
    // OpenID Connect Discovery 1.0 §3 (docs/integrate-with-oauth.md, OpenID Connect).
    jwks_uri: `${issuer}/oauth/jwks`,
    end_session_endpoint: `${issuer}/oauth/logout`,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'amr', 'acr', 'nonce', 'at_hash', 'name', 'email', 'email_verified'],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    // Its default is true (Discovery §3), so it is stated.
    request_uri_parameter_supported: false,
    // RFC 9126 §5: the request_uri values this server accepts are its own, from this endpoint.
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    require_pushed_authorization_requests: false,
    // offline_access: accepted, and every user's grant has a refresh token anyway (src/common/scopes.ts).
    scopes_supported: [...KNOWN_SCOPES, OFFLINE_ACCESS],
    response_types_supported: ['code'],
    // OAuth 2.0 Form Post Response Mode §2 (docs/integrate-with-oauth.md).
    response_modes_supported: ['query', 'form_post'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    // RFC 7662 §2.1: introspection answers authenticated clients only, so not `none`.
    introspection_endpoint_auth_methods_supported: authMethods.filter((method) => method !== 'none'),
    prompt_values_supported: ['none', 'login', 'consent'],
    // OIDC Discovery §3: the one class `acr_values` may ask for (docs/integrate-with-oauth.md, "Asking for a second factor").
    acr_values_supported: [MFA_ACR],
    // RFC 9207 §3: every authorization response carries `iss`.
    authorization_response_iss_parameter_supported: true,
    // RFC 9449 §5.1: DPoP proofs are accepted at the token endpoint, the API and UserInfo.
    dpop_signing_alg_values_supported: [...DPOP_SIGNING_ALGS],
    // draft-ietf-oauth-client-id-metadata-document §5: a client_id may be the URL of its metadata document.
    client_id_metadata_document_supported: true,
    service_documentation: `${issuer}/docs`,
  };
}

export type AuthorizationServerMetadata = ReturnType<typeof authorizationServerMetadata>;
