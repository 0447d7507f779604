// Which template engine renders the pages (README.md, "Pages"): the consent page of an unverified
// application, rendered by each candidate from the same data, compared on
//   - render time (compiled and cached, as the service renders its pages),
//   - escaping by default (the application's name holds markup and must come out as text),
//   - the page's CSP: the inline stylesheet must reach the page byte for byte, or its hash no longer
//     matches `style-src` and the browser drops the whole style.
//   node bench/views.mjs [iterations]      (no build and no database needed)
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Eta } from 'eta';
import Handlebars from 'handlebars';
import nunjucks from 'nunjucks';

const ITERATIONS = Number(process.argv[2] ?? 20000);
const STYLE = readFileSync(new URL('../views/style.css', import.meta.url), 'utf8').trim();
const hash = (text) => createHash('sha256').update(text, 'utf8').digest('base64');

// The data the consent page is rendered from (what the page's view model holds).
const data = {
  language: 'en',
  title: 'Allow access',
  style: STYLE,
  platformName: 'Startup Platform',
  userLabel: 'Signed in as ada@example.com.',
  intro: { before: '', name: 'Acme <script>alert(1)</script> "\u202eX\'&', after: ' wants to use your account to:' },
  scopes: [
    { words: 'Confirm who you are', scope: 'openid' },
    { words: 'Your name', scope: 'profile' },
    { words: 'Your email address', scope: 'email' },
    { words: 'Read the startup directory', scope: 'read:startups' },
  ],
  warning: { text: 'This application is not verified by the operator of this service. Allow it only if you trust it.', before: 'Whether you allow or deny, you will then be sent to ', host: 'app.example', after: '.' },
  hidden: [
    { name: 'csrf_token', value: 'csrf"tok<en>' },
    { name: 'transaction', value: 'v1.tx&abc' },
  ],
  approve: 'Allow',
  deny: 'Deny',
  note: 'If you deny, the application gets no information.',
};

// The same markup in each engine's syntax: a layout, a partial for the hidden inputs, the page body.
const eta = new Eta({ autoTrim: false, cache: true, views: '/' });
eta.loadTemplate('@hidden', '<% it.hidden.forEach((f) => { %><input type="hidden" name="<%= f.name %>" value="<%= f.value %>">\n<% }) %>');
eta.loadTemplate('@layout', `<!doctype html>
<html lang="<%= it.language %>">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title><%= it.title %></title>
<style><%~ it.style %></style>
</head>
<body>
<header class="brand"><p><%= it.platformName %></p></header>
<main>
<%~ it.body %>
</main>
</body>
</html>
`);
eta.loadTemplate('@consent', `<% layout('@layout') %><h1><%= it.title %></h1>
<p class="muted"><%= it.userLabel %></p>
<p id="intro"><%= it.intro.before %><bdi><%= it.intro.name %></bdi><%= it.intro.after %></p>
<ul class="scopes" aria-labelledby="intro">
<% it.scopes.forEach((s) => { %><li><%= s.words %> <span class="muted">(<%= s.scope %>)</span></li>
<% }) %></ul>
<div class="warning" id="unverified">
<p><%= it.warning.text %></p>
<p><%= it.warning.before %><strong><%= it.warning.host %></strong><%= it.warning.after %></p>
</div>
<form method="post" action="consent">
<%~ include('@hidden', it) %><div class="actions">
<button type="submit" name="decision" value="approve"><%= it.approve %></button>
<button type="submit" name="decision" value="deny" class="secondary"><%= it.deny %></button>
</div>
</form>
<p class="muted"><%= it.note %></p>`);

const hbs = Handlebars.create();
hbs.registerPartial('hidden', '{{#each hidden}}<input type="hidden" name="{{name}}" value="{{value}}">\n{{/each}}');
const hbsLayout = hbs.compile(`<!doctype html>
<html lang="{{language}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{title}}</title>
<style>{{{style}}}</style>
</head>
<body>
<header class="brand"><p>{{platformName}}</p></header>
<main>
{{{body}}}
</main>
</body>
</html>
`);
const hbsConsent = hbs.compile(`<h1>{{title}}</h1>
<p class="muted">{{userLabel}}</p>
<p id="intro">{{intro.before}}<bdi>{{intro.name}}</bdi>{{intro.after}}</p>
<ul class="scopes" aria-labelledby="intro">
{{#each scopes}}<li>{{words}} <span class="muted">({{scope}})</span></li>
{{/each}}</ul>
<div class="warning" id="unverified">
<p>{{warning.text}}</p>
<p>{{warning.before}}<strong>{{warning.host}}</strong>{{warning.after}}</p>
</div>
<form method="post" action="consent">
{{> hidden}}<div class="actions">
<button type="submit" name="decision" value="approve">{{approve}}</button>
<button type="submit" name="decision" value="deny" class="secondary">{{deny}}</button>
</div>
</form>
<p class="muted">{{note}}</p>`);

const njk = new nunjucks.Environment(
  new (nunjucks.Loader.extend({
    getSource: (name) => ({ src: NJK[name], path: name, noCache: false }),
  }))(),
  { autoescape: true },
);
const NJK = {
  hidden: '{% for f in hidden %}<input type="hidden" name="{{ f.name }}" value="{{ f.value }}">\n{% endfor %}',
  layout: `<!doctype html>
<html lang="{{ language }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{ title }}</title>
<style>{{ style | safe }}</style>
</head>
<body>
<header class="brand"><p>{{ platformName }}</p></header>
<main>
{% block main %}{% endblock %}
</main>
</body>
</html>
`,
  consent: `{% extends "layout" %}{% block main %}<h1>{{ title }}</h1>
<p class="muted">{{ userLabel }}</p>
<p id="intro">{{ intro.before }}<bdi>{{ intro.name }}</bdi>{{ intro.after }}</p>
<ul class="scopes" aria-labelledby="intro">
{% for s in scopes %}<li>{{ s.words }} <span class="muted">({{ s.scope }})</span></li>
{% endfor %}</ul>
<div class="warning" id="unverified">
<p>{{ warning.text }}</p>
<p>{{ warning.before }}<strong>{{ warning.host }}</strong>{{ warning.after }}</p>
</div>
<form method="post" action="consent">
{% include "hidden" %}<div class="actions">
<button type="submit" name="decision" value="approve">{{ approve }}</button>
<button type="submit" name="decision" value="deny" class="secondary">{{ deny }}</button>
</div>
</form>
<p class="muted">{{ note }}</p>{% endblock %}`,
};
const njkConsent = njk.getTemplate('consent', true);

// Today's renderer, for comparison: template literals, each value passed through escapeHtml by hand.
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const e = (value) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
const literal = (d) => `<!doctype html>
<html lang="${d.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${e(d.title)}</title>
<style>${d.style}</style>
</head>
<body>
<header class="brand"><p>${e(d.platformName)}</p></header>
<main>
<h1>${e(d.title)}</h1>
<p class="muted">${e(d.userLabel)}</p>
<p id="intro">${e(d.intro.before)}<bdi>${e(d.intro.name)}</bdi>${e(d.intro.after)}</p>
<ul class="scopes" aria-labelledby="intro">
${d.scopes.map((s) => `<li>${e(s.words)} <span class="muted">(${e(s.scope)})</span></li>\n`).join('')}</ul>
<div class="warning" id="unverified">
<p>${e(d.warning.text)}</p>
<p>${e(d.warning.before)}<strong>${e(d.warning.host)}</strong>${e(d.warning.after)}</p>
</div>
<form method="post" action="consent">
${d.hidden.map((f) => `<input type="hidden" name="${e(f.name)}" value="${e(f.value)}">\n`).join('')}<div class="actions">
<button type="submit" name="decision" value="approve">${e(d.approve)}</button>
<button type="submit" name="decision" value="deny" class="secondary">${e(d.deny)}</button>
</div>
</form>
<p class="muted">${e(d.note)}</p>
</main>
</body>
</html>
`;

const candidates = [
  { name: 'template literals + escapeHtml (today)', version: '', render: () => literal(data), escapesByDefault: false },
  { name: 'Eta', version: pkg('eta'), render: () => eta.render('@consent', data) },
  { name: 'Handlebars', version: pkg('handlebars'), render: () => hbsLayout({ ...data, body: hbsConsent(data) }) },
  { name: 'Nunjucks', version: pkg('nunjucks'), render: () => njkConsent.render(data) },
];

// The page as today's string-built renderer produces it: the reference every engine must reproduce.
const reference = literal(data);
// Rounds interleave the candidates, so that a neighbour's load on a shared machine falls on all of them.
const ROUNDS = 11;
const times = candidates.map(() => []);
for (const c of candidates) for (let i = 0; i < 2000; i++) c.render();
for (let round = 0; round < ROUNDS; round++) {
  candidates.forEach((c, k) => {
    const start = performance.now();
    for (let i = 0; i < ITERATIONS / ROUNDS; i++) c.render();
    times[k].push(((performance.now() - start) * 1000) / (ITERATIONS / ROUNDS));
  });
}
const rows = candidates.map((c, k) => {
  const html = c.render();
  const sorted = times[k].sort((a, b) => a - b);
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
  return {
    engine: `${c.name} ${c.version}`.trim(),
    'µs/page (median)': sorted[(ROUNDS - 1) / 2].toFixed(1),
    // Without escaping written at each value: the plain interpolation of the template.
    'escapes by default': c.escapesByDefault !== false && html.includes('Acme &lt;script&gt;') && !html.includes('<script>'),
    'style hash kept': style !== undefined && hash(style) === hash(STYLE),
    'same bytes as today': html === reference,
    'first difference': html === reference ? '' : firstDifference(reference, html),
  };
});
console.table(rows);

function pkg(name) {
  return JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
}

function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return JSON.stringify(b.slice(Math.max(0, i - 10), i + 20));
}
