import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { policyOrigin } from '../../clients/client-rules';
import { Language } from '../../common/i18n/language';

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

// One small stylesheet, inline so the pages load no external asset; the CSP allows exactly this text
// by its hash, and no script at all.
const STYLE = `
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1b1f24;background:#f3f4f6}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;padding:2rem 1rem}
main{width:100%;max-width:26rem;background:#fff;border:1px solid #d8dbe0;border-radius:.75rem;padding:1.75rem}
body.wide main{max-width:56rem}
h1{font-size:1.4rem;margin:0 0 1rem}
h2{font-size:1.1rem;margin:1.75rem 0 .75rem}
h3{font-size:1rem;margin:0 0 .5rem}
p{margin:0 0 1rem}
a{color:#1849a9}
label{display:block;font-weight:600;margin:0 0 .25rem}
input[type=email],input[type=password],input[type=text],input[type=url],textarea,select{display:block;width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #8a919c;border-radius:.4rem;margin:0 0 1rem;background:#fff;color:inherit}
button{font:inherit;font-weight:600;padding:.65rem 1.1rem;border-radius:.4rem;border:1px solid #1849a9;background:#1d5bd6;color:#fff;cursor:pointer;min-height:2.75rem}
button.secondary{background:#fff;color:#1b1f24;border-color:#8a919c}
button.danger{background:#fff;color:#b42318;border-color:#b42318}
a:focus-visible,input:focus-visible,textarea:focus-visible,select:focus-visible,button:focus-visible{outline:3px solid #f0b400;outline-offset:2px}
.actions{display:flex;flex-wrap:wrap;gap:.75rem}
.actions button{flex:1 1 8rem}
form+p{margin-top:1rem}
.alert{border-left:4px solid #b42318;background:#fef3f2;padding:.6rem .8rem;margin:0 0 1rem}
.notice{border-left:4px solid #067647;background:#ecfdf3;padding:.6rem .8rem;margin:0 0 1rem}
.warning{border-left:4px solid #b54708;background:#fffaeb;padding:.6rem .8rem;margin:0 0 1rem;overflow-wrap:anywhere}
.warning p{margin:0 0 .5rem}
.warning p:last-child{margin:0}
.muted{color:#4b5563;font-size:.925rem}
ul.scopes{margin:0 0 1.25rem;padding-left:1.25rem}
ul.scopes li{margin:.25rem 0}
header.brand{width:100%;max-width:26rem;margin:0 0 .75rem}
header.brand p{font-weight:700;margin:0}
header.site{width:100%;max-width:56rem;display:flex;flex-wrap:wrap;align-items:center;gap:.75rem 1.5rem;margin:0 0 1rem}
header.site .brand{font-weight:700;margin:0}
header.site nav{flex:1 1 auto}
header.site nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0}
header.site nav a{display:inline-block;padding:.35rem .1rem;text-decoration:none;color:#1b1f24}
header.site nav a[aria-current=page]{font-weight:700;border-bottom:3px solid #1d5bd6}
header.site form{margin:0}
header.site button{min-height:2.5rem;padding:.4rem .9rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1.25rem;margin:0 0 1rem}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse;margin:0 0 1rem;font-size:.95rem}
th,td{text-align:left;vertical-align:top;padding:.5rem .6rem;border-bottom:1px solid #d8dbe0}
th{font-weight:600;background:#f8f9fb}
td{overflow-wrap:anywhere}
.cards{list-style:none;margin:0;padding:0;display:grid;gap:1rem}
.card{border:1px solid #d8dbe0;border-radius:.6rem;padding:1rem 1.1rem}
.card h2{margin-top:0}
.card form{margin:.75rem 0 0}
fieldset{border:1px solid #d8dbe0;border-radius:.4rem;margin:0 0 1rem;padding:.5rem .9rem .75rem}
legend{font-weight:600;padding:0 .25rem}
.choice{display:flex;gap:.5rem;align-items:baseline;margin:.35rem 0}
.choice label{font-weight:400;margin:0}
details{margin:.75rem 0 0}
summary{cursor:pointer;font-weight:600;padding:.35rem 0;color:#1849a9}
summary:focus-visible{outline:3px solid #f0b400;outline-offset:2px}
form.inline{display:inline;margin:0 0 0 .5rem}
form.inline button{min-height:2.25rem;padding:.3rem .7rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}
td code{white-space:nowrap}
code[data-credential]{display:inline-block;background:#fff;border:1px solid #8a919c;border-radius:.3rem;padding:.15rem .4rem;user-select:all}
td.nowrap,th.nowrap,td time{white-space:nowrap}
#device-code strong{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:nowrap}
input.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1.35rem;letter-spacing:.12em;text-transform:uppercase;text-align:center}
`.trim();

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
