import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { hasCostlyBind, installAsyncResourceBind } from './async-resource-bind';

describe('installAsyncResourceBind', () => {
  const nodeBind = AsyncResource.prototype.bind;
  afterAll(() => {
    AsyncResource.prototype.bind = nodeBind;
  });

  it('replaces Node 20’s bind, whose asyncResource getter is re-parented, and only once', () => {
    const major = Number(process.versions.node.split('.')[0]);
    if (major === 20) expect(hasCostlyBind()).toBe(true);
    const installed = installAsyncResourceBind();
    expect(installed).toBe(major === 20 ? true : AsyncResource.prototype.bind !== nodeBind);
    expect(hasCostlyBind()).toBe(false);
    expect(installAsyncResourceBind()).toBe(false);
  });

  it('runs the bound function in the async context of the bind, not of the caller', async () => {
    installAsyncResourceBind();
    const storage = new AsyncLocalStorage<string>();
    const bound = storage.run('request 1', () => AsyncResource.bind(() => storage.getStore()));
    expect(storage.run('request 2', () => bound())).toBe('request 1');
    const later = await storage.run('request 3', () => new Promise<() => string | undefined>((resolve) => setImmediate(() => resolve(AsyncResource.bind(() => storage.getStore())))));
    expect(later()).toBe('request 3');
  });

  it('passes the arguments and the result, the caller’s this or thisArg, and keeps fn.length', () => {
    installAsyncResourceBind();
    function add(this: unknown, a: number, b: number): number {
      return ((this as { base?: number } | undefined)?.base ?? 0) + a + b;
    }
    const free = AsyncResource.bind(add);
    expect(free.length).toBe(2);
    expect(free.call({ base: 10 }, 1, 2)).toBe(13);
    const fixed = AsyncResource.bind(add, 'test', { base: 100 });
    expect(fixed.call({ base: 10 }, 1, 2)).toBe(103);
    expect(() => new AsyncResource('test').bind(42 as never)).toThrow(TypeError);
  });

  // Its DEP0172 warning goes to the real process, which a test's sandboxed `process` does not see.
  it('keeps the deprecated asyncResource property, an accessor as in Node', () => {
    installAsyncResourceBind();
    const resource = new AsyncResource('test');
    const bound = resource.bind(() => 1) as (() => number) & { asyncResource: AsyncResource };
    const descriptor = Object.getOwnPropertyDescriptor(bound, 'asyncResource');
    expect(descriptor).toMatchObject({ enumerable: true, configurable: true });
    expect(typeof descriptor?.get).toBe('function');
    expect(Object.getPrototypeOf(descriptor?.get)).toBe(Function.prototype);
    expect(bound.asyncResource).toBe(resource);
    const other = new AsyncResource('other');
    bound.asyncResource = other;
    expect(bound.asyncResource).toBe(other);
    expect(bound()).toBe(1);
  });
});
