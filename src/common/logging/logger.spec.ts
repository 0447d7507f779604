import { redactQuery, redactText, redactUrl } from './logger';

describe('log redaction', () => {
  it('masks every sensitive parameter of a URL, whatever its spelling, and leaves the rest', () => {
    expect(redactUrl('/oauth/authorize?client_id=app&login_hint=ada%40example.com&nonce=n1&state=s&code=c&scope=openid')).toBe(
      '/oauth/authorize?client_id=app&login_hint=[REDACTED]&nonce=[REDACTED]&state=[REDACTED]&code=[REDACTED]&scope=openid',
    );
    expect(redactUrl('/oauth/logout?id%5Ftoken%5Fhint=eyJ.x.y&ID_TOKEN_HINT=a&id_token_hint=b&id_token_hint=c')).toBe(
      '/oauth/logout?id%5Ftoken%5Fhint=[REDACTED]&ID_TOKEN_HINT=[REDACTED]&id_token_hint=[REDACTED]&id_token_hint=[REDACTED]',
    );
    expect(redactUrl('/device?user_code=ABCD-EFGH&device_code=d#access_token=t&x=1')).toBe('/device?user_code=[REDACTED]&device_code=[REDACTED]#access_token=[REDACTED]&x=1');
    expect(redactUrl('/oauth/par?request_uri=urn%3Aietf%3Aparams&client_id=a')).toBe('/oauth/par?request_uri=[REDACTED]&client_id=a');
    expect(redactUrl('/health')).toBe('/health');
  });

  it('masks a form body and free text', () => {
    expect(redactQuery('grant_type=refresh_token&refresh_token=sp_rt_x&client_secret=sp_cs_y')).toBe('grant_type=refresh_token&refresh_token=[REDACTED]&client_secret=[REDACTED]');
    expect(redactText('failed GET /oauth/authorize?nonce=abc&x=1 (password=hunter2)')).toBe('failed GET /oauth/authorize?nonce=[REDACTED]&x=1 (password=[REDACTED])');
    expect(redactText('no pairs here')).toBe('no pairs here');
  });
});

describe('logFormatFor (docs/configuration-and-deployment.md, Logs)', () => {
  it('writes lines for people in development only; JSON in production and in tests', () => {
    const { logFormatFor } = jest.requireActual('./logger') as typeof import('./logger');
    expect(logFormatFor('development')).toBe('pretty');
    expect(logFormatFor('production')).toBe('json');
    expect(logFormatFor('test')).toBe('json');
  });
});
