import { INestApplication } from '@nestjs/common';
import { ApiKeyTier } from '../../src/api-keys/api-key.entity';
import { ApiKeysService } from '../../src/api-keys/api-keys.service';

/** An API key created through the real service; `key` is the secret to send as `X-Api-Key`. */
export async function createTestApiKey(app: INestApplication, tier: ApiKeyTier = 'standard', options: { revoked?: boolean } = {}) {
  const service = app.get(ApiKeysService, { strict: false });
  const { apiKey, key } = await service.create({ name: `test ${tier} key`, tier });
  if (options.revoked) await service.revoke(apiKey.id);
  return { id: apiKey.id, key };
}
