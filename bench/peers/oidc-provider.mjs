// The OAuth peer: oidc-provider (the Node OAuth reference server) with an in-memory store, one
// confidential client (client_secret_basic), opaque tokens, rotating refresh tokens and introspection on.
// At start it issues one grant per account, as the service's `seed --users --tokens-for` does, and writes
// the tokens to GRANTS_FILE for the load generator.
//
// The store is a plain Map: oidc-provider's own development adapter is an LRU capped at 1,000 entries,
// which would evict live tokens under load and turn the comparison into a count of errors.
import { writeFileSync } from 'node:fs';
import Provider from 'oidc-provider';

const port = Number(process.env.PORT);
const accounts = Number(process.env.ACCOUNTS ?? 1000);
const CLIENT = { client_id: 'bench', client_secret: 'bench-secret-0123456789abcdef0123456789abcdef' };
const SCOPE = 'offline_access profile';

const store = new Map();
const grants = new Map();
class MapAdapter {
  constructor(model) {
    this.model = model;
  }
  key(id) {
    return `${this.model}:${id}`;
  }
  async upsert(id, payload, expiresIn) {
    const key = this.key(id);
    store.set(key, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
    if (payload.grantId) {
      let members = grants.get(payload.grantId);
      if (!members) grants.set(payload.grantId, (members = new Set()));
      members.add(key);
    }
  }
  async find(id) {
    const entry = store.get(this.key(id));
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      store.delete(this.key(id));
      return undefined;
    }
    return entry.payload;
  }
  async findByUid() {
    return undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async consume(id) {
    const entry = store.get(this.key(id));
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) {
    store.delete(this.key(id));
  }
  async revokeByGrantId(grantId) {
    for (const key of grants.get(grantId) ?? []) store.delete(key);
    grants.delete(grantId);
  }
}

const provider = new Provider(`http://127.0.0.1:${port}`, {
  adapter: MapAdapter,
  clients: [
    {
      ...CLIENT,
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['http://127.0.0.1:8080/callback'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  scopes: ['openid', 'offline_access', 'profile'],
  features: { introspection: { enabled: true }, revocation: { enabled: true }, devInteractions: { enabled: false } },
  rotateRefreshToken: true,
  ttl: { AccessToken: 3600, RefreshToken: 30 * 86400, Grant: 30 * 86400, Session: 86400, Interaction: 3600 },
  cookies: { keys: ['bench-cookie-key-0123456789abcdef'] },
});

const client = await provider.Client.find(CLIENT.client_id);
const issued = [];
for (let i = 1; i <= accounts; i++) {
  const accountId = `user-${i}`;
  const grant = new provider.Grant({ accountId, clientId: CLIENT.client_id });
  grant.addOIDCScope(SCOPE);
  const grantId = await grant.save();
  const common = { accountId, client, grantId, scope: SCOPE, gty: 'authorization_code' };
  const refresh_token = await new provider.RefreshToken(common).save();
  const access_token = await new provider.AccessToken(common).save();
  issued.push({ user_id: accountId, access_token, refresh_token });
}
writeFileSync(process.env.GRANTS_FILE, JSON.stringify({ client: CLIENT, grants: issued }));

const server = provider.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
