import { parseEnvironment } from './configuration';
import { ConfigError } from './env-parsers';

describe('parseEnvironment', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = parseEnvironment({});
    expect(config.app).toMatchObject({ port: 3000, publicUrl: 'http://localhost:3000', nodeEnv: 'development', secureCookies: false, seedDemoData: true });
    expect(config.database).toMatchObject({ type: 'sqlite', sqlitePath: 'data/platform.sqlite' });
    expect(config.auth).toMatchObject({
      accessTokenTtlSeconds: 3600,
      refreshTokenTtlSeconds: 2592000,
      refreshTokenGracePeriodSeconds: 0,
      authCodeTtlSeconds: 60,
      sessionSecretGenerated: true,
    });
    expect(config.rateLimit.redisUrl).toBeUndefined();
    expect(config.developer).toEqual({ maxClients: 10, maxApiKeys: 10 });
    expect(config.metrics).toEqual({ port: undefined, host: '127.0.0.1' });
  });

  it('names the platform by PLATFORM_NAME and refuses a name with control or format characters', () => {
    expect(parseEnvironment({}).app.platformName).toBe('Startup Platform');
    expect(parseEnvironment({ PLATFORM_NAME: '  Girişim Ağı ' }).app.platformName).toBe('Girişim Ağı');
    for (const bad of ['a\u202Eb', 'a\u200Bb', 'x'.repeat(101)]) {
      expect(() => parseEnvironment({ PLATFORM_NAME: bad })).toThrow(/^PLATFORM_NAME must be 1 to 100 characters/);
    }
  });

  it('reads MCP_ALLOWED_ORIGINS as * or origins written as a browser sends them, and refuses any other form', () => {
    expect(parseEnvironment({}).app.mcpAllowedOrigins).toEqual([]);
    expect(parseEnvironment({ MCP_ALLOWED_ORIGINS: '*' }).app.mcpAllowedOrigins).toBe('*');
    expect(parseEnvironment({ MCP_ALLOWED_ORIGINS: ' https://agent.example , http://localhost:6274' }).app.mcpAllowedOrigins).toEqual(['https://agent.example', 'http://localhost:6274']);
    for (const bad of ['https://Agent.example', 'https://agent.example/', 'https://agent.example:443', 'agent.example', 'ftp://agent.example', 'null', 'https://*.example']) {
      expect(() => parseEnvironment({ MCP_ALLOWED_ORIGINS: `https://ok.example,${bad}` })).toThrow(new RegExp(`^MCP_ALLOWED_ORIGINS must be \\* or a comma-separated list of origins.*got "${bad.replace(/[.*/]/g, '\\$&')}"$`));
    }
  });

  it('sends mail over SMTP_URL from MAIL_FROM, by default the platform at the host of PUBLIC_URL', () => {
    const mail = parseEnvironment({ PUBLIC_URL: 'https://id.example.com', PLATFORM_NAME: 'Girişim Ağı' }).mail;
    expect(mail).toEqual({
      smtpUrl: undefined,
      from: '"Girişim Ağı" <no-reply@id.example.com>',
      toConsole: true,
      enabled: true,
      signUp: 'open',
      emailTokenTtlSeconds: 86400,
      passwordResetTtlSeconds: 1800,
      maxPerHour: 5,
      retryHours: 72,
    });
    expect(parseEnvironment({ PLATFORM_NAME: 'Acme, "Inc."' }).mail.from).toBe('"Acme, \\"Inc.\\"" <no-reply@localhost>');
    const configured = parseEnvironment({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'accounts@example.com', SIGN_UP: 'closed' }).mail;
    expect(configured).toMatchObject({ smtpUrl: 'smtps://u:p@mail.example.com:465', from: 'accounts@example.com', toConsole: false, enabled: true, signUp: 'closed' });
    // In production without SMTP_URL nothing is printed and the pages that need mail are off.
    const production = parseEnvironment({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), KEY_ENCRYPTION_SECRET: 'y'.repeat(32) }).mail;
    expect(production).toMatchObject({ toConsole: false, enabled: false });
  });

  it('refuses a bad mail setting with one line naming it', () => {
    expect(() => parseEnvironment({ SMTP_URL: 'http://mail.example.com' })).toThrow(/^SMTP_URL must use smtp: or smtps:/);
    expect(() => parseEnvironment({ SMTP_URL: 'smtp://u:secret@' })).toThrow(/^SMTP_URL must be an absolute URL, got "smtp:\/\/u:\*\*\*@"/);
    expect(() => parseEnvironment({ MAIL_FROM: 'no address' })).toThrow(/^MAIL_FROM must be an address or "Name <address>"/);
    expect(() => parseEnvironment({ SIGN_UP: 'maybe' })).toThrow(/^SIGN_UP must be one of open, closed/);
    expect(() => parseEnvironment({ EMAIL_TOKEN_TTL: '10' })).toThrow(/^EMAIL_TOKEN_TTL must be a whole number between 300 and/);
    expect(() => parseEnvironment({ PASSWORD_RESET_TTL: 'soon' })).toThrow(/^PASSWORD_RESET_TTL must be a whole number/);
    expect(() => parseEnvironment({ MAIL_MAX_PER_HOUR: '0' })).toThrow(/^MAIL_MAX_PER_HOUR must be a whole number between 1 and 1000/);
    expect(() => parseEnvironment({ MAIL_RETRY_HOURS: '0' })).toThrow(/^MAIL_RETRY_HOURS must be a whole number between 1 and 720/);
  });

  it('serves metrics only on a port of their own', () => {
    expect(parseEnvironment({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(parseEnvironment({ METRICS_PORT: '0', PORT: '0' }).metrics.port).toBe(0);
    expect(() => parseEnvironment({ METRICS_PORT: '3000' })).toThrow(/^METRICS_PORT must differ from PORT \(3000\)/);
  });

  it('generates KEY_ENCRYPTION_SECRET outside production and gives ID_TOKEN_TTL an hour by default', () => {
    const config = parseEnvironment({});
    expect(config.oidc).toMatchObject({ idTokenTtlSeconds: 3600, keyEncryptionSecretGenerated: true });
    expect(config.oidc.keyEncryptionSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('requires KEY_ENCRYPTION_SECRET in production and keeps a configured one', () => {
    expect(() => parseEnvironment({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) })).toThrow(
      'KEY_ENCRYPTION_SECRET is required when NODE_ENV=production (at least 32 characters)',
    );
    const config = parseEnvironment({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), KEY_ENCRYPTION_SECRET: 'k'.repeat(32) });
    expect(config.oidc).toMatchObject({ keyEncryptionSecret: 'k'.repeat(32), keyEncryptionSecretGenerated: false });
  });

  it('switches to PostgreSQL for a postgres:// URL and to secure cookies for an https PUBLIC_URL', () => {
    const config = parseEnvironment({ DATABASE_URL: 'postgres://app@db:5432/platform', PUBLIC_URL: 'https://api.example.com/' });
    expect(config.database.type).toBe('postgres');
    expect(config.app.publicUrl).toBe('https://api.example.com');
    expect(config.app.secureCookies).toBe(true);
  });

  it('advertises the port it serves on when PUBLIC_URL is unset, and PUBLIC_URL when it is set', () => {
    expect(parseEnvironment({}).app.publicUrl).toBe('http://localhost:3000');
    expect(parseEnvironment({ PORT: '3917' }).app.publicUrl).toBe('http://localhost:3917');
    expect(parseEnvironment({ PORT: '3917', PUBLIC_URL: 'https://api.example.com' }).app.publicUrl).toBe('https://api.example.com');
  });

  it('reads TRUST_PROXY as a boolean, a hop count or an address list', () => {
    expect(parseEnvironment({ TRUST_PROXY: 'true' }).app.trustProxy).toBe(true);
    expect(parseEnvironment({ TRUST_PROXY: '2' }).app.trustProxy).toBe(2);
    expect(parseEnvironment({ TRUST_PROXY: '10.0.0.0/8' }).app.trustProxy).toBe('10.0.0.0/8');
  });

  it.each([
    [{ PORT: '70000' }, 'PORT'],
    [{ RATE_LIMIT_ANONYMOUS: '0' }, 'RATE_LIMIT_ANONYMOUS'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ KEY_ENCRYPTION_SECRET: 'k'.repeat(31) }, 'KEY_ENCRYPTION_SECRET'],
    [{ ID_TOKEN_TTL: '59' }, 'ID_TOKEN_TTL'],
    [{ ID_TOKEN_TTL: '86401' }, 'ID_TOKEN_TTL'],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL'],
    [{ SEED_DEMO_DATA: 'maybe' }, 'SEED_DEMO_DATA'],
    [{ REFRESH_TOKEN_GRACE_PERIOD: '301' }, 'REFRESH_TOKEN_GRACE_PERIOD'],
    [{ REFRESH_TOKEN_GRACE_PERIOD: '-1' }, 'REFRESH_TOKEN_GRACE_PERIOD'],
    [{ REFRESH_TOKEN_GRACE_PERIOD: '2.5' }, 'REFRESH_TOKEN_GRACE_PERIOD'],
    [{ METRICS_PORT: 'prometheus' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '65536' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '8080', PORT: '8080' }, 'METRICS_PORT'],
    [{ DEVELOPER_MAX_CLIENTS: '-1' }, 'DEVELOPER_MAX_CLIENTS'],
    [{ DEVELOPER_MAX_CLIENTS: 'ten' }, 'DEVELOPER_MAX_CLIENTS'],
    [{ DEVELOPER_MAX_API_KEYS: '1001' }, 'DEVELOPER_MAX_API_KEYS'],
  ])('refuses %j naming the variable', (env, name) => {
    expect(() => parseEnvironment(env)).toThrow(ConfigError);
    expect(() => parseEnvironment(env)).toThrow(new RegExp(`^${name} `));
  });
});
