import { Secret, TOTP } from 'otpauth';
import { signInAt } from './account';
import { BrowserResponse, BrowserSession, hiddenInputs } from './oauth';
import { formInputs } from './account';

/** The text of the element carrying `data-credential="<name>"`, entities decoded. */
export function credential(html: string, name: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]*data-credential="${name}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match ? match[2].replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').trim() : undefined;
}

/** The code an authenticator app shows at `at` (epoch ms) for this base32 secret (RFC 6238, 30 s, 6 digits, SHA-1). */
export function totpCode(secret: string, at: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
}

/**
 * Turns the authenticator app on from `/account/security` as a person does (the browser is signed in
 * with the password first): **Set up an authenticator app**, read the secret the page shows, confirm
 * with its current code; resolves with the secret and the recovery codes shown once.
 */
export async function turnOnAuthenticator(
  browser: BrowserSession,
  user: { email: string; password: string },
  now: () => number,
): Promise<{ secret: string; recoveryCodes: string[]; setupPage: BrowserResponse; codesPage: BrowserResponse }> {
  const security = await signInAt(browser, '/account/security', user);
  const started = await browser.post('/account/security/authenticator', formInputs(security.text, '/account/security/authenticator'));
  if (started.status !== 303) throw new Error(`setup: ${started.status}`);
  const setupPage = await browser.get('/account/security');
  const secret = credential(setupPage.text, 'totp_secret');
  if (!secret) throw new Error('no totp_secret on the page');
  const confirmed = await browser.post('/account/security/authenticator/confirm', {
    ...formInputs(setupPage.text, '/account/security/authenticator/confirm'),
    code: totpCode(secret, now()),
  });
  if (confirmed.status !== 303) throw new Error(`confirm: ${confirmed.status} ${confirmed.text.slice(0, 300)}`);
  const codesPage = await browser.get(confirmed.location!.replace(/#.*$/, ''));
  const recoveryCodes = (credential(codesPage.text, 'recovery_codes') ?? '').split(/\s+/).filter(Boolean);
  return { secret, recoveryCodes, setupPage, codesPage };
}

/** Posts the email and password of the sign-in page `page` (its hidden inputs kept). */
export function postPassword(browser: BrowserSession, page: BrowserResponse, user: { email: string; password: string }): Promise<BrowserResponse> {
  return browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password: user.password });
}

/** Posts a code on the code page `page` (its hidden inputs, the sealed password step among them, kept). */
export function postCode(browser: BrowserSession, page: BrowserResponse, code: string): Promise<BrowserResponse> {
  return browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), code });
}
