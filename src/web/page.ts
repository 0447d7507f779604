import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { policyOrigin } from '../common/http/redirect-hosts';
import { Language } from '../common/i18n/language';
import { renderView, STYLE } from './views';

const STYLE_HASH = hashSource(STYLE);

export interface Page {
  status: number;
  language: Language;
  title: string;
  /** The title is followed by ` · ` and the platform's name (the account pages). */
  platformInTitle?: boolean;
  /** The view of the page's content (under views/, README.md "Pages"), and the data it is rendered from. */
  view: string;
  data: object;
  /**
   * Origins a form on the page may end up at. Chromium applies `form-action` to the redirect that
   * follows a form post too, so the client's redirect URI origin must be listed beside 'self'.
   */
  formTargets?: string[];
  headers?: Record<string, string>;
  /** The account pages' navigation above the content (it names the platform); without it, the platform's name. */
  navigation?: SiteNavigation;
  /** False on a page whose own heading names the platform (the front page): no name above it. */
  brand?: false;
  /** The wider layout of the account pages, for tables and lists. */
  wide?: boolean;
  /**
   * The one inline script of the page, if any (only the form post response page has one): the CSP
   * allows exactly this text by its SHA-256 hash, and nothing else.
   */
  script?: string;
  /**
   * Script files of this server the page loads (the passkey pages only: SimpleWebAuthn's browser part
   * and its driver); the CSP then allows `'self'` for scripts, never an inline one but the hashed above.
   */
  scripts?: string[];
}

/** A CSP source allowing exactly this inline text (CSP Level 3 §8.4, hash-source). */
export function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The page's own Content-Security-Policy: only the hashed stylesheet and, when the page has one, its
 * hashed script (else no script at all), never framed. A form
 * target enters the header only as a well-formed origin (policyOrigin): a redirect URI stored before its
 * rules refused `;` and `,` would otherwise add sources or directives of its own (SECURITY.md).
 */
export function pagePolicy(formTargets: string[] | undefined, script?: string, files = false): string {
  const origins = (formTargets ?? []).filter((target) => policyOrigin(target) === target);
  const formAction = formTargets === undefined ? "'none'" : ["'self'", ...new Set(origins)].join(' ');
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    ...(script === undefined && !files ? [] : [`script-src ${[...(files ? ["'self'"] : []), ...(script === undefined ? [] : [hashSource(script)])].join(' ')}`]),
    "img-src 'self'",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The header of the pages that have navigation (the account pages): its links and the sign-out form. */
export interface SiteNavigation {
  label: string;
  links: Array<{ href: string; text: string; current: boolean }>;
  csrfToken: string;
  signOut: string;
}

/** The script files of the passkey pages (served by PasskeyScriptsController), under `script-src 'self'`. */
export const PASSKEY_SCRIPTS = ['/assets/webauthn.js', '/assets/passkeys.js'];

/**
 * Options of a WebAuthn ceremony, written into a `<script type="application/json">` of the page (data,
 * never run): `<` is escaped so that nothing in it can close the element.
 */
export function embeddedJson(json: string): string {
  return json.replace(/</g, '\\u003c');
}

/**
 * The platform's name (`PLATFORM_NAME`, this one by default), above every page that has no navigation of
 * its own and in every page's title, so that nobody signs in or consents without knowing where. The
 * application puts the configured name on its Fastify instance under this decoration; sendPage reads it.
 */
export const PLATFORM_NAME = 'Startup Platform';
export const PLATFORM_NAME_DECORATION = 'platformName';

/** What the layout (views/layouts/page.eta) and the page's view are rendered from. */
function viewData(page: Page, platformName: string): object {
  return {
    ...page.data,
    layout: {
      language: page.language,
      title: page.platformInTitle ? `${page.title} · ${platformName}` : page.title.replaceAll('{platform}', platformName),
      wide: page.wide === true,
      navigation: page.navigation,
      script: page.script,
      scripts: page.scripts ?? [],
      brand: page.brand !== false,
    },
    style: STYLE,
    platformName,
    /** A sentence of the catalogues with the platform's name in place of `{platform}`. */
    withPlatform: (text: string) => text.replaceAll('{platform}', platformName),
  };
}

/** The whole document of a page, as sendPage sends it. */
export function renderDocument(page: Page, platformName = PLATFORM_NAME): string {
  return renderView(page.view, viewData(page, platformName));
}

/** The platform's name the application was configured with, where the reply's server carries one. */
function platformNameOf(reply: FastifyReply): string {
  const configured = (reply.server as unknown as Record<string, unknown>)[PLATFORM_NAME_DECORATION];
  return typeof configured === 'string' ? configured : PLATFORM_NAME;
}

/**
 * Sends an HTML page of the authorization flow: never cached (it carries a CSRF token), never framed
 * (`X-Frame-Options: DENY` comes from the hardening headers of createApp, `frame-ancestors 'none'` from the policy), in the
 * negotiated language. Rendered here by the one engine (views.ts) and sent as the body, so that any reply
 * can carry a page: also one the router hands to the error handler before any route matched.
 */
export function sendPage(reply: FastifyReply, page: Page): void {
  void reply
    .status(page.status)
    .headers({
      ...page.headers,
      'content-type': 'text/html; charset=utf-8',
      'content-language': page.language,
      'content-security-policy': pagePolicy(page.formTargets, page.script, (page.scripts ?? []).length > 0),
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      vary: 'Accept-Language, Cookie',
    })
    .send(renderDocument(page, platformNameOf(reply)));
}
