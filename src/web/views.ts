import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Eta } from 'eta';

/**
 * The templates of the pages (README.md, Pages), in `views/` at the package's root beside `src/` and
 * `dist/`: the nearest folder above this file that has a `package.json`. So the service finds them from
 * its sources (the tests), from its build (`npm start`) and from a build made elsewhere below the root.
 */
export const VIEWS_ROOT = join(packageRoot(__dirname), 'views');

function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}: the page templates (views/) cannot be found`);
  }
}

/**
 * The one stylesheet of the pages, inlined by the layout so that they load no external asset; the CSP
 * allows exactly this text by its hash (pagePolicy), so the layout writes it unchanged.
 */
export const STYLE = readFileSync(join(VIEWS_ROOT, 'style.css'), 'utf8').trim();

/**
 * Eta escapes every `<%= … %>` (`&<>"'`, as HTML attribute values and text need); only `<%~ … %>`
 * writes raw, and the views use it for nothing but the stylesheet, the form post page's hashed script,
 * partials already rendered by this engine, the QR code drawn by `qrcode` as SVG and the WebAuthn
 * options as JSON data with `<` escaped (embeddedJson). Whitespace is written exactly as the views spell it.
 * Templates are compiled once and cached: they ship with the service and do not change while it runs.
 */
export const viewEngine = new Eta({ views: VIEWS_ROOT, autoEscape: true, autoTrim: false, cache: true });

/** Renders a view to a string (a page's whole document: renderDocument and sendPage in page.ts). */
export function renderView(view: string, data: object): string {
  return viewEngine.render(view, data);
}
