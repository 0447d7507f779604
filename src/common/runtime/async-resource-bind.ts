import { AsyncResource } from 'node:async_hooks';
import { deprecate } from 'node:util';

/**
 * Nest runs every interceptor chain through `AsyncResource.bind` (twice per request with the global
 * EnvelopeInterceptor), and Fastify's body parser once per request with a body. On Node 20 each call
 * costs about 7 µs, most of it in defining the deprecated `asyncResource` property (DEP0172) of the
 * bound function: Node wraps its getter and setter with `util.deprecate`, which re-parents each fresh
 * wrapper onto the function it wraps (`Object.setPrototypeOf`), so V8 makes a new hidden class for two
 * new prototypes on every call. Node has since stopped re-parenting those wrappers (nodejs/node#58218).
 *
 * Where the running Node still has the costly version, `AsyncResource.prototype.bind` (which the
 * static `AsyncResource.bind` calls) is replaced by the same function without the re-parenting: the
 * bound function runs `fn` in the resource's async context with the caller's `this` (or `thisArg`),
 * keeps `fn.length`, and still has `asyncResource`, with the same one-time DEP0172 warning. It costs
 * about 1 µs. Elsewhere this does nothing. Called once, before the application handles a request.
 */
export function installAsyncResourceBind(): boolean {
  if (!hasCostlyBind()) return false;
  AsyncResource.prototype.bind = bind;
  return true;
}

const warnDeprecatedProperty = deprecate(
  () => undefined,
  'The asyncResource property on bound functions is deprecated',
  'DEP0172',
);

function bind<Func extends (...args: any[]) => any>(this: AsyncResource, fn: Func, thisArg?: ThisParameterType<Func>): Func {
  return bindTo(this, fn, thisArg);
}

function bindTo<Func extends (...args: any[]) => any>(resource: AsyncResource, fn: Func, thisArg: ThisParameterType<Func> | undefined): Func {
  if (typeof fn !== 'function') throw new TypeError(`The "fn" argument must be of type function. Received ${typeof fn}`);
  let exposed = resource;
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]): unknown {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : resource.runInAsyncScope.bind(resource, fn, thisArg);
  Object.defineProperties(bound, {
    length: { configurable: true, enumerable: false, writable: false, value: fn.length },
    asyncResource: {
      configurable: true,
      enumerable: true,
      get() {
        warnDeprecatedProperty();
        return exposed;
      },
      set(value: AsyncResource) {
        warnDeprecatedProperty();
        exposed = value;
      },
    },
  });
  return bound as Func;
}

/** Node's own `bind` re-parents the `asyncResource` getter onto another function (see above). */
export function hasCostlyBind(): boolean {
  if (AsyncResource.prototype.bind === bind) return false;
  const probe = new AsyncResource('probe').bind(() => undefined);
  const getter = Object.getOwnPropertyDescriptor(probe, 'asyncResource')?.get;
  return getter !== undefined && Object.getPrototypeOf(getter) !== Function.prototype;
}
