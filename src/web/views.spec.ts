import { createHash } from 'node:crypto';
import { Page, renderDocument } from './page';
import { consentPage, signInPage } from './pages/pages';
import { renderView, STYLE, viewEngine } from './views';

const form = { csrfToken: 'token', transaction: 'v1.tx' };
const hostile = 'Acme <script>alert(1)</script> "\u202e\'&';

describe('the views', () => {
  it('escape an application\'s name by default: markup in it is text, and it stays isolated in <bdi>', () => {
    // This fails if the engine's escaping is turned off (autoEscape), whatever the views say.
    for (const page of [
      consentPage({ language: 'en', clientName: hostile, userLabel: 'a@example.com', scopes: ['profile'], redirectOrigin: 'https://app.example', form }),
      signInPage({ language: 'tr', clientName: hostile, redirectOrigin: 'https://app.example', form }),
    ]) {
      const html = renderDocument(page);
      expect(html).not.toContain('<script>');
      expect(html).toContain('<bdi>Acme &lt;script&gt;alert(1)&lt;/script&gt; &quot;\u202e&#39;&amp;</bdi>');
    }
    expect(viewEngine.config.autoEscape).toBe(true);
  });

  it('escape every value of a partial, attribute values included', () => {
    expect(renderView('partials/hidden-inputs', { fields: [['csrf_token', '"><script>'], ['state', "a'b&c"]] })).toBe(
      '<input type="hidden" name="csrf_token" value="&quot;&gt;&lt;script&gt;">\n<input type="hidden" name="state" value="a&#39;b&amp;c">',
    );
    expect(renderView('partials/csrf', { csrfToken: '<x>' })).toBe('<input type="hidden" name="csrf_token" value="&lt;x&gt;">');
  });

  it('write the stylesheet byte for byte, so that its hash in the page\'s CSP matches', () => {
    const page: Page = { status: 200, language: 'en', title: 'T', view: 'error', data: { heading: 'T', problem: 'P' } };
    const style = /<style>([\s\S]*)<\/style>/.exec(renderDocument(page))![1];
    expect(style).toBe(STYLE);
    expect(createHash('sha256').update(style).digest('base64')).toBe(createHash('sha256').update(STYLE).digest('base64'));
  });

  it('put the one script of a page in the document as given, and no script otherwise', () => {
    const base: Page = { status: 200, language: 'en', title: 'T', view: 'error', data: { heading: 'T', problem: 'P' } };
    expect(renderDocument(base)).not.toContain('<script');
    expect(renderDocument({ ...base, script: 'document.forms[0].submit();' })).toContain('</main>\n<script>document.forms[0].submit();</script>\n</body>');
  });
});
