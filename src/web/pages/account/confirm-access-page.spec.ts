import { renderDocument } from '../../page';
import { confirmAccessLink, confirmAccessPage } from './confirm-access-page';

describe('confirmAccessPage', () => {
  const ctx = { language: 'en' as const, csrfToken: 'csrf-token' };

  it('posts the password with the CSRF token and the return path, escaped; offers the code only to an account with the app', () => {
    const html = renderDocument(confirmAccessPage(ctx, { returnTo: '/account/security?a="b"&c=<d>', code: false, passkeyOptions: '{"challenge":"</script>"}' }));
    expect(html).toContain('<form method="post" action="/account/confirm-access">');
    expect(html).toContain('name="current_password"');
    expect(html).toContain('<input type="hidden" name="csrf_token" value="csrf-token">');
    expect(html).toContain('<input type="hidden" name="return_to" value="/account/security?a=&quot;b&quot;&amp;c=&lt;d&gt;">');
    // The passkey options are data that cannot close their element.
    expect(html).toContain('{"challenge":"\\u003c/script>"}');
    expect(html).not.toContain('name="code"');
    expect(renderDocument(confirmAccessPage(ctx, { returnTo: '/account', code: true, passkeyOptions: '{}' }))).toContain('name="code"');
  });

  it('answers a refused proof 400, too many 429 with Retry-After, and an action refused for want of one 403 with a word that nothing changed', () => {
    expect(confirmAccessPage(ctx, { returnTo: '/account', code: false, passkeyOptions: '{}', problem: 'wrong_password' }).status).toBe(400);
    const throttled = confirmAccessPage(ctx, { returnTo: '/account', code: false, passkeyOptions: '{}', problem: 'throttled', retryAfterSeconds: 60 });
    expect([throttled.status, throttled.headers]).toEqual([429, { 'retry-after': '60' }]);
    const asked = confirmAccessPage({ ...ctx, language: 'tr' }, { returnTo: '/account/data', code: false, passkeyOptions: '{}', asked: true, status: 403 });
    expect(asked.status).toBe(403);
    expect(renderDocument(asked)).toContain('Hiçbir şey değişmedi.');
  });

  it('links to itself with the return path encoded', () => {
    expect(confirmAccessLink('/account/security?x=1')).toBe('/account/confirm-access?return_to=%2Faccount%2Fsecurity%3Fx%3D1');
  });
});
