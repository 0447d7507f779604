import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { requestIdOf } from './request-id';

const raw = (header?: string) => ({ headers: header === undefined ? {} : { 'x-request-id': header } }) as unknown as IncomingMessage;

describe('requestIdOf', () => {
  it('reuses a sane client id', () => {
    expect(requestIdOf(raw('req-42.a_b:c'))).toBe('req-42.a_b:c');
  });

  it('replaces anything else with a UUID, and remembers it per request', () => {
    const request = raw('not sane!');
    const id = requestIdOf(request);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(request)).toBe(id);
  });

  it('only ever answers ids made of the allowed characters, at most 128 long', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (header) => {
        const id = requestIdOf(raw(header));
        return /^[A-Za-z0-9._:-]{1,128}$/.test(id);
      }),
    );
  });
});
