import { BrowserResponse, BrowserSession, hiddenInputs } from './oauth';

/**
 * Opens an account page as an anonymous visitor and signs in on the sign-in page it sends to, as a
 * person would: resolves with the page asked for, reached through the sign-in's redirect back.
 */
export async function signInAt(browser: BrowserSession, path: string, user: { email: string; password: string }): Promise<BrowserResponse> {
  const asked = await browser.get(path);
  if (asked.status === 200) return asked;
  if (asked.status !== 303 || !asked.location) throw new Error(`expected a redirect to the sign-in page, got ${asked.status}`);
  const page = await browser.get(asked.location);
  const signedIn = await browser.post('/oauth/sign-in', { ...hiddenInputs(page.text), email: user.email, password: user.password });
  if (signedIn.status !== 303 || !signedIn.location) throw new Error(`expected a redirect back after sign-in, got ${signedIn.status}: ${signedIn.text.slice(0, 300)}`);
  return browser.get(signedIn.location);
}

/** The hidden inputs of the form whose action is `action`, decoded (the CSRF token among them). */
export function formInputs(html: string, action: string): Record<string, string> {
  const escaped = action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const form = new RegExp(`<form[^>]*action="${escaped}"[^>]*>([\\s\\S]*?)</form>`).exec(html);
  if (!form) throw new Error(`no form posting to ${action}`);
  return hiddenInputs(form[1]);
}

/**
 * An accepted form's answer followed as a browser follows it (Post/Redirect/Get): checks it is a 303 to
 * `expected` and resolves with the GET page it names.
 */
export async function followSeeOther(browser: BrowserSession, answer: BrowserResponse, expected: string): Promise<BrowserResponse> {
  if (answer.status !== 303 || answer.location !== expected) throw new Error(`expected a 303 to ${expected}, got ${answer.status} ${answer.location ?? ''}: ${answer.text.slice(0, 300)}`);
  return browser.get(answer.location);
}
