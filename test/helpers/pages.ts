import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/**
 * Where the browser suites leave a screenshot of each page they check, for a reviewer to look at
 * (git-ignored; CI keeps it as the run's output).
 */
export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'test-results', 'screenshots');

/**
 * Saves the whole page as `test-results/screenshots/<name>.png`. Written beside it and renamed into
 * place, so that two runs at once (two `npm test`) leave one whole picture, never two interleaved.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  const partial = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(partial, await capture(page));
  renameSync(partial, path);
  return path;
}

/**
 * Chromium's compositor now and then has no frame to give when a loaded machine asks for the whole page
 * ("Protocol error (Page.captureScreenshot): Unable to capture screenshot"), and gives one when asked
 * again. That refusal alone is asked again, twice at most; any other error fails the test as it is.
 */
async function capture(page: Page, attemptsLeft = 3): Promise<Buffer> {
  try {
    return await page.screenshot({ fullPage: true });
  } catch (error) {
    if (attemptsLeft <= 1 || !String((error as Error).message).includes('Unable to capture screenshot')) throw error;
    await page.waitForTimeout(250); // a pause for the compositor, not a deadline: nothing is asserted about time
    return capture(page, attemptsLeft - 1);
  }
}

/**
 * The check every page of the browser suites passes, named for the report: its screenshot is saved,
 * axe-core finds nothing, and nothing is wider than the viewport (no sideways scrolling on a phone).
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect([name, await axeViolations(page)]).toEqual([name, []]);
  expect([name, await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)]).toEqual([name, page.viewportSize()!.width]);
}

let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules, and its best practices) on the page's markup as it is and
 * resolves with what it reports. The pages are checked as served, with JavaScript off, so axe runs on
 * a copy of their markup in a page of its own (same viewport, JavaScript on), never in theirs.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const html = await page.content();
  const context = await page.context().browser()!.newContext({ viewport: page.viewportSize() ?? undefined });
  try {
    const copy = await context.newPage();
    await copy.setContent(html);
    await copy.evaluate(axeSource);
    return await runAxe(copy);
  } finally {
    await context.close();
  }
}

function runAxe(page: Page): Promise<AxeViolation[]> {
  return page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const results = await axe.run((globalThis as any).document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
    return results.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n: any) => n.target.join(' ')) }));
  });
}

/** The focused element's outline, as computed: a visible focus ring has a style other than `none` and a width. */
export async function focusOutline(page: Page): Promise<{ tag: string; style: string; width: string }> {
  return page.evaluate(() => {
    const element = (globalThis as any).document.activeElement;
    const style = (globalThis as any).getComputedStyle(element);
    return { tag: String(element.tagName).toLowerCase(), style: style.outlineStyle, width: style.outlineWidth };
  });
}
