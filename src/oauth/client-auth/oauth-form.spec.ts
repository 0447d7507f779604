import type { FastifyRequest } from 'fastify';
import { OAuthError } from '../../common/errors/oauth-error';
import { readOAuthForm } from './oauth-form';

const request = (contentType: string | undefined, body: unknown) => ({ headers: contentType ? { 'content-type': contentType } : {}, body }) as unknown as FastifyRequest;

function failure(run: () => unknown): OAuthError {
  try {
    run();
  } catch (error) {
    return error as OAuthError;
  }
  throw new Error('expected an OAuthError');
}

describe('readOAuthForm', () => {
  it('returns the parameters, dropping those sent without a value (RFC 6749 §3.2)', () => {
    expect(readOAuthForm(request('application/x-www-form-urlencoded; charset=UTF-8', { grant_type: 'refresh_token', scope: '' }))).toEqual({ grant_type: 'refresh_token' });
  });

  it.each([undefined, 'application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencodedx'])('refuses the content type %p', (type) => {
    expect(failure(() => readOAuthForm(request(type, {})))).toMatchObject({ error: 'invalid_request', status: 400 });
  });

  it('refuses a repeated parameter', () => {
    const error = failure(() => readOAuthForm(request('application/x-www-form-urlencoded', { code: ['a', 'b'] })));
    expect(error).toMatchObject({ error: 'invalid_request', description: 'The parameter code was sent more than once.' });
  });

  it('does not echo a repeated parameter whose name is not a plain name (RFC 6749 §5.2 character set)', () => {
    const error = failure(() => readOAuthForm(request('application/x-www-form-urlencoded', { '"l[\u00e7': ['a', 'b'] })));
    expect(error).toMatchObject({ error: 'invalid_request', description: 'A parameter was sent more than once.' });
  });
});
