import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply } from 'fastify';
import { policyOrigin } from '../clients/client-rules';
import { Language } from '../common/i18n/language';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values in HTML: every character with a meaning in markup is escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * A name someone else chose (an application's), escaped and isolated in `<bdi>` (HTML §4.5.24,
 * Unicode UAX #9 isolates): whatever its characters' direction, it cannot reorder the page's own
 * sentence around it (SECURITY.md, "Look-alike and reordered application names").
 */
export function isolatedName(name: string): string {
  return `<bdi>${escapeHtml(name)}</bdi>`;
}

// NUL: never part of a catalogue sentence, so it marks where the name goes.
const NAME_SLOT = '\u0000';

/** A catalogue sentence about a name (`t.consentIntro(name)`), escaped, with the name isolated in it. */
export function sentenceWithName(sentence: (name: string) => string, name: string): string {
  return escapeHtml(sentence(NAME_SLOT)).split(NAME_SLOT).join(isolatedName(name));
}

// One small stylesheet (views/style.css), inline so the pages load no external asset; the CSP allows
// exactly this text by its hash, and no script at all.
const STYLE = readFileSync(join(__dirname, '..', '..', 'views', 'style.css'), 'utf8').trim();

const STYLE_HASH = hashSource(STYLE);

export interface Page {
  status: number;
  language: Language;
  title: string;
  body: string;
  /**
   * Origins a form on the page may end up at. Chromium applies `form-action` to the redirect that
   * follows a form post too, so the client's redirect URI origin must be listed beside 'self'.
   */
  formTargets?: string[];
  headers?: Record<string, string>;
  /** Markup above the main content (the account pages' navigation, which names the platform), already escaped; the platform's name otherwise. */
  header?: string;
  /** The wider layout of the account pages, for tables and lists. */
  wide?: boolean;
  /**
   * The one inline script of the page, if any (only the form post response page has one): the CSP
   * allows exactly this text by its SHA-256 hash, and nothing else.
   */
  script?: string;
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
export function pagePolicy(formTargets: string[] | undefined, script?: string): string {
  const origins = (formTargets ?? []).filter((target) => policyOrigin(target) === target);
  const formAction = formTargets === undefined ? "'none'" : ["'self'", ...new Set(origins)].join(' ');
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    ...(script === undefined ? [] : [`script-src ${hashSource(script)}`]),
    "img-src 'self'",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The platform's name, above every page that has no navigation of its own, so that nobody signs in or consents without knowing where. */
export const PLATFORM_NAME = 'Startup Platform';
const BRAND_HEADER = `<header class="brand"><p>${escapeHtml(PLATFORM_NAME)}</p></header>\n`;

export function renderDocument(page: Page): string {
  return `<!doctype html>
<html lang="${page.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)}</title>
<style>${STYLE}</style>
</head>
<body${page.wide ? ' class="wide"' : ''}>
${page.header ?? BRAND_HEADER}<main>
${page.body}
</main>
${page.script === undefined ? '' : `<script>${page.script}</script>\n`}</body>
</html>
`;
}

/**
 * Sends an HTML page of the authorization flow: never cached (it carries a CSRF token), never framed
 * (`X-Frame-Options: DENY` comes from the hardening headers of createApp, `frame-ancestors 'none'` from the policy), in the
 * negotiated language.
 */
export function sendPage(reply: FastifyReply, page: Page): void {
  reply
    .status(page.status)
    .headers({
      ...page.headers,
      'content-type': 'text/html; charset=utf-8',
      'content-language': page.language,
      'content-security-policy': pagePolicy(page.formTargets, page.script),
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      vary: 'Accept-Language, Cookie',
    })
    .send(renderDocument(page));
}
