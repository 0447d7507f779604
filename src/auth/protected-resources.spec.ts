import { ProtectedResources } from './protected-resources';

describe('ProtectedResources', () => {
  const sut = new ProtectedResources({ publicUrl: 'https://platform.example' } as never);

  it('names the two resources and their RFC 9728 metadata addresses', () => {
    expect([sut.api, sut.mcp]).toEqual(['https://platform.example/api/public/v1', 'https://platform.example/mcp']);
    expect(sut.metadataUrl('api')).toBe('https://platform.example/.well-known/oauth-protected-resource/api/public/v1');
    expect(sut.metadataUrl('mcp')).toBe('https://platform.example/.well-known/oauth-protected-resource/mcp');
  });

  it('reads trailing-slash, default-port and host-case variants as the same resource (RFC 8707 §2)', () => {
    for (const value of ['https://platform.example/mcp', 'https://platform.example/mcp/', 'https://platform.example:443/mcp', 'HTTPS://Platform.Example/mcp']) {
      expect(sut.canonical(value)).toBe(sut.mcp);
    }
    expect(sut.canonical('https://platform.example:443/api/public/v1/')).toBe(sut.api);
  });

  it('refuses anything else: a fragment, a relative or foreign URI, a query, another path or port', () => {
    for (const value of [
      'https://platform.example/mcp#x',
      '/mcp',
      'mcp',
      'https://elsewhere.example/mcp',
      'https://platform.example/mcp?x=1',
      'https://platform.example/MCP',
      'https://platform.example:8443/mcp',
      'http://platform.example/mcp',
      'https://user@platform.example/mcp',
      'https://platform.example/api/public/v1/me',
      'https://platform.example',
    ]) {
      expect(sut.canonical(value)).toBeNull();
    }
  });

  it('reads a stored audience by the resource it names, whatever PUBLIC_URL it was written under (another instance, a moved address)', () => {
    const elsewhere = new ProtectedResources({ publicUrl: 'http://127.0.0.1:4001' } as never);
    expect(sut.audienceOf(elsewhere.mcp)).toBe(sut.mcp);
    expect(sut.audienceOf(elsewhere.api)).toBe(sut.api);
    expect(sut.audienceOf(null)).toBe(sut.api);
    const underAPath = new ProtectedResources({ publicUrl: 'https://platform.example/mcp' } as never);
    expect(underAPath.audienceOf(underAPath.api)).toBe(underAPath.api);
    expect(underAPath.audienceOf(underAPath.mcp)).toBe(underAPath.mcp);
  });

  it('takes the resource of a request from the route it matched, and a token without audience as the public API\'s', () => {
    const matched = (url?: string) => ({ routeOptions: { url } });
    expect(sut.requestedAt(matched('/api/public/v1/me'))).toBe(sut.api);
    expect(sut.requestedAt(matched('/mcp'))).toBe(sut.mcp);
    expect(sut.requestedAt(matched('/mcp/:tool'))).toBe(sut.mcp);
    expect(sut.requestedAt(matched('/mcpx'))).toBe(sut.api);
    expect(sut.requestedAt(matched(undefined))).toBe(sut.api);
    expect(sut.challengesAt(matched('/mcp'))).toBe(sut.mcpChallenges);
    expect(sut.audienceOf(null)).toBe(sut.api);
  });
});
