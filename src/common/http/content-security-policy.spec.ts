import { contentSecurityPolicyFor } from './content-security-policy';

describe('contentSecurityPolicyFor', () => {
  const docs = contentSecurityPolicyFor('/docs');
  const api = contentSecurityPolicyFor('/api/public/v1/me');

  it('gives the reference its policy, with or without a query, and nothing else', () => {
    expect(docs).not.toBe(api);
    for (const url of ['/docs', '/docs/', '/docs/swagger-ui.css', '/docs?x=1', '/docs/json?y']) expect([url, contentSecurityPolicyFor(url)]).toEqual([url, docs]);
    for (const url of ['/docsx', '/docs-json', '/api/docs', '/', '/oauth/token?/docs', '/doc']) expect([url, contentSecurityPolicyFor(url)]).toEqual([url, api]);
  });

  it('lets the API and every page forbid framing', () => {
    expect(api).toContain("frame-ancestors 'none'");
    expect(docs).toContain("frame-ancestors 'none'");
  });
});
