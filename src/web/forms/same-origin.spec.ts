import type { FastifyRequest } from 'fastify';
import { isSameOriginPost } from './same-origin';

function request(headers: Record<string, string>): FastifyRequest {
  return { headers, host: 'as.example', protocol: 'https' } as unknown as FastifyRequest;
}

describe('isSameOriginPost', () => {
  const publicUrl = 'https://as.example';

  it('accepts a post from a page of this server', () => {
    expect(isSameOriginPost(request({ origin: 'https://as.example', 'sec-fetch-site': 'same-origin' }), publicUrl)).toBe(true);
  });

  it('accepts what a browser sends for a same-origin post from a no-referrer page', () => {
    expect(isSameOriginPost(request({ origin: 'null', 'sec-fetch-site': 'same-origin' }), publicUrl)).toBe(true);
  });

  it('leaves a request without Fetch Metadata and without a real Origin to the CSRF token', () => {
    expect(isSameOriginPost(request({}), publicUrl)).toBe(true);
    expect(isSameOriginPost(request({ origin: 'null' }), publicUrl)).toBe(true);
  });

  it.each([
    [{ 'sec-fetch-site': 'cross-site' }],
    [{ 'sec-fetch-site': 'same-site' }],
    [{ 'sec-fetch-site': 'none' }],
    [{ origin: 'https://evil.example' }],
    [{ origin: 'null', 'sec-fetch-site': 'cross-site' }],
    [{ origin: 'http://as.example' }],
    [{ origin: 'https://as.example', 'sec-fetch-site': 'cross-site' }],
  ])('refuses %p', (headers) => {
    expect(isSameOriginPost(request(headers), publicUrl)).toBe(false);
  });
});
