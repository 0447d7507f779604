import { isKnownScope } from '../common/scopes';
import { scopesOfTool, TOOL_NAMES, toolCallScopes } from './tool-scopes';

describe('tool scopes', () => {
  it('gives each tool the scopes its API route declares, every one a known scope', () => {
    expect(Object.fromEntries(TOOL_NAMES.map((name) => [name, scopesOfTool(name)]))).toEqual({
      list_industries: [],
      search_startups: ['read:startups'],
      get_startup: ['read:startups'],
      get_me: ['profile'],
    });
    for (const name of TOOL_NAMES) for (const scope of scopesOfTool(name)) expect(isKnownScope(scope)).toBe(true);
  });

  it('reads the scopes of every tools/call in a message or a batch, and none for anything else', () => {
    const call = (name: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } });
    expect(toolCallScopes({ body: call('search_startups') })).toEqual(['read:startups']);
    expect(toolCallScopes({ body: [call('get_me'), call('get_startup'), call('get_startup')] }).sort()).toEqual(['profile', 'read:startups']);
    for (const body of [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      call('list_industries'),
      call('no_such_tool'),
      call('constructor'),
      call(42),
      { method: 'tools/call' },
      [null, 'x', 1],
      undefined,
      'tools/call',
    ]) {
      expect(toolCallScopes({ body })).toEqual([]);
    }
  });
});
