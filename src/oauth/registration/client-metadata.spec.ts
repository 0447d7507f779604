import { parseClientMetadata } from './client-metadata';
import { RegistrationError } from './registration-error';

const rules = { publicUrl: 'https://platform.example', platformName: 'Startup Platform' };
const base = { client_name: 'My agent', redirect_uris: ['https://agent.example/cb'] };

function refusal(body: unknown, current?: Parameters<typeof parseClientMetadata>[2]): string {
  try {
    parseClientMetadata(body, rules, current);
  } catch (error) {
    if (error instanceof RegistrationError) return error.error;
    throw error;
  }
  throw new Error('accepted');
}

describe('parseClientMetadata (RFC 7591 §2)', () => {
  it('fills in the RFC defaults: a confidential web client for authorization_code with every scope', () => {
    expect(parseClientMetadata(base, rules)).toEqual({
      name: 'My agent',
      redirectUris: ['https://agent.example/cb'],
      scopes: ['email', 'openid', 'profile', 'read:startups'],
      applicationType: 'web',
      tokenEndpointAuthMethod: 'client_secret_basic',
      deviceFlow: false,
      clientUri: null,
      logoUri: null,
      idTokenSignedResponseAlg: 'RS256',
    });
  });

  it('takes a public native client on a loopback redirect URI, the device grant and null as absent', () => {
    const parsed = parseClientMetadata(
      { ...base, redirect_uris: ['http://127.0.0.1:9/cb', 'http://127.0.0.1:9/cb'], application_type: 'native', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'urn:ietf:params:oauth:grant-type:device_code'], logo_uri: null },
      rules,
    );
    expect(parsed).toMatchObject({ redirectUris: ['http://127.0.0.1:9/cb'], applicationType: 'native', tokenEndpointAuthMethod: 'none', deviceFlow: true, logoUri: null });
  });

  it('types a client native when every redirect URI is http on a loopback host and no type is said, as MCP clients register', () => {
    expect(parseClientMetadata({ ...base, redirect_uris: ['http://localhost:6274/oauth/callback'] }, rules)).toMatchObject({ applicationType: 'native' });
    expect(parseClientMetadata({ ...base, redirect_uris: ['https://agent.example/cb'] }, rules)).toMatchObject({ applicationType: 'web' });
  });

  it.each([
    [{ ...base, redirect_uris: ['http://127.0.0.1:9/cb'], application_type: 'web' }, 'invalid_redirect_uri'],
    [{ ...base, redirect_uris: ['https://agent.example/cb#f'] }, 'invalid_redirect_uri'],
    [{ client_name: 'x' }, 'invalid_redirect_uri'],
    [{ ...base, client_name: 'Startup Platf0rm' }, 'invalid_client_metadata'],
    [{ ...base, grant_types: ['authorization_code', 'client_credentials'] }, 'invalid_client_metadata'],
    [{ ...base, response_types: [] }, 'invalid_client_metadata'],
    [{ ...base, scope: 7 }, 'invalid_client_metadata'],
    [null, 'invalid_client_metadata'],
    [{ ...base, client_uri: 'http://agent.example/' }, 'invalid_client_metadata'],
    [{ ...base, logo_uri: 'https://user@agent.example/logo.png' }, 'invalid_client_metadata'],
    [{ ...base, logo_uri: 'https://agent.example/l\u00f6go.png' }, 'invalid_client_metadata'],
  ])('refuses %j with %s', (body, error) => {
    expect(refusal(body)).toBe(error);
  });

  it('keeps https page and logo addresses, and http ones on a loopback host', () => {
    expect(parseClientMetadata({ ...base, client_uri: 'https://agent.example/', logo_uri: 'http://localhost:8080/logo.png' }, rules)).toMatchObject({
      clientUri: 'https://agent.example/',
      logoUri: 'http://localhost:8080/logo.png',
    });
  });

  it('keeps the registered method when a replacement sends none, and never turns a public client confidential', () => {
    expect(parseClientMetadata(base, rules, { tokenEndpointAuthMethod: 'none' }).tokenEndpointAuthMethod).toBe('none');
    expect(parseClientMetadata({ ...base, token_endpoint_auth_method: 'client_secret_post' }, rules, { tokenEndpointAuthMethod: 'client_secret_basic' }).tokenEndpointAuthMethod).toBe('client_secret_post');
    expect(refusal({ ...base, token_endpoint_auth_method: 'client_secret_basic' }, { tokenEndpointAuthMethod: 'none' })).toBe('invalid_client_metadata');
    expect(refusal({ ...base, token_endpoint_auth_method: 'none' }, { tokenEndpointAuthMethod: 'client_secret_post' })).toBe('invalid_client_metadata');
  });
});
