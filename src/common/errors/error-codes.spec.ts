import { codeForStatus, ERROR_CATALOGUE, ERROR_CODES } from './error-codes';

describe('the error catalogue', () => {
  it('has a Turkish and an English message for every code, and UPPER_SNAKE_CASE codes', () => {
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(ERROR_CATALOGUE[code].tr.length).toBeGreaterThan(5);
      expect(ERROR_CATALOGUE[code].en.length).toBeGreaterThan(5);
      expect(ERROR_CATALOGUE[code].tr).not.toBe(ERROR_CATALOGUE[code].en);
    }
  });

  it.each([
    [400, 'BAD_REQUEST'],
    [401, 'UNAUTHORIZED'],
    [404, 'NOT_FOUND'],
    [405, 'METHOD_NOT_ALLOWED'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [415, 'UNSUPPORTED_MEDIA_TYPE'],
    [429, 'RATE_LIMITED'],
    [431, 'HEADERS_TOO_LARGE'],
    [500, 'INTERNAL_ERROR'],
    [502, 'INTERNAL_ERROR'],
    [503, 'SERVICE_UNAVAILABLE'],
    [418, 'BAD_REQUEST'],
  ])('maps a bare status %i to %s', (status, code) => {
    expect(codeForStatus(status)).toBe(code);
  });
});
