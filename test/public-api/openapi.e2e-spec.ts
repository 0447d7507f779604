import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

/** The reference documents exactly what the access decorators enforce (docs/using-the-api.md). */
describe('the public API in the OpenAPI reference', () => {
  let t: TestApp;
  let paths: Record<string, Record<string, any>>;

  beforeAll(async () => {
    t = await startTestApp();
    paths = (await http(t.url, '/docs-json')).body.paths;
  });
  afterAll(() => t.close());

  const operation = (path: string) => paths[`/api/public/v1${path}`].get;
  const withKey = (requirement: object) => ({ ...requirement, 'api-key': [] });

  it('documents every route of the contract with a summary, a description and a tag', () => {
    for (const [path, tag] of [
      ['/industries', 'industries'],
      ['/industries/{id}', 'industries'],
      ['/me', 'me'],
      ['/startups', 'startups'],
      ['/startups/{id}', 'startups'],
    ]) {
      const op = operation(path);
      expect(op.summary).toEqual(expect.any(String));
      expect(op.description).toEqual(expect.any(String));
      expect(op.tags).toEqual([tag]);
      expect(op.responses['200'].content['application/json'].schema.required).toContain('data');
    }
  });

  it('declares the optional API key on the industry routes', () => {
    for (const path of ['/industries', '/industries/{id}']) {
      expect(operation(path).security).toEqual([{ 'api-key': [] }, {}]);
      expect(Object.keys(operation(path).responses).sort()).toEqual(
        path.endsWith('{id}') ? ['200', '400', '401', '404', '429', '431', '500', '503'] : ['200', '400', '401', '429', '431', '500', '503'],
      );
    }
  });

  it.each([
    ['/startups', 'read:startups'],
    ['/startups/{id}', 'read:startups'],
    ['/me', 'profile'],
  ])('declares a Bearer token with scope on %s, or a DPoP-bound one (RFC 9449)', (path, scope) => {
    const op = operation(path);
    expect(op.security).toEqual([
      { bearer: [] },
      { oauth2: [scope] },
      { dpop: [] },
      withKey({ bearer: [] }),
      withKey({ dpop: [] }),
      withKey({ oauth2: [scope] }),
    ]);
    expect(op.responses['401'].description).toContain('UNAUTHORIZED');
    expect(op.responses['401'].description).toContain('INVALID_API_KEY');
    expect(op.responses['401'].content['application/json'].examples).toHaveProperty('UNAUTHORIZED');
    expect(op.responses['403'].description).toContain('INSUFFICIENT_SCOPE');
    expect(op.responses['429'].headers).toHaveProperty('Retry-After');
    // Each status is described once, however many decorators declared codes for it.
    expect(op.responses['429'].description).toBe('`RATE_LIMITED`: Too many requests; try again later.');
  });

  it('documents the list parameters with their constraints', () => {
    const params = Object.fromEntries(operation('/startups').parameters.map((p: any) => [p.name, p]));
    expect(Object.keys(params).sort()).toEqual(['industryId', 'limit', 'offset', 'q', 'sort']);
    expect(params.limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(params.offset.schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(params.sort.schema).toMatchObject({ enum: ['name', '-name', 'foundedYear', '-foundedYear'], default: 'name' });
    expect(params.q.schema).toMatchObject({ type: 'string', maxLength: 200 });
    expect(operation('/startups').responses['200'].content['application/json'].schema.required).toEqual(['data', 'meta']);
    const id = operation('/startups/{id}').parameters.find((p: any) => p.name === 'id');
    expect(id).toMatchObject({ in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
  });
});
