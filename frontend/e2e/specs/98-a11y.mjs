// e2e: accessibility of every view, checked by axe-core in real Chromium at
// 1440×900 and at 375 px width. A server of its own holds one ingested issue
// (with an article) and one uploaded book, so the review page, the reader and
// the book view have content. Every serious or critical violation fails the
// test, and target-size (WCAG 2.2: tap targets of at least 24 px) is among
// the rules. The skip link is checked by keyboard.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { check, getJSON, ingest, samplePDF, SLOW, startServer, test, waitUntil } from '../harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const novel = resolve(new URL('../books/the-ross-household.txt', import.meta.url).pathname);

/** The serious and critical violations axe-core finds on the page, one line each. */
async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const found = await page.evaluate(async () => {
    // target-size (WCAG 2.2: 24 px tap targets) is off by default in axe-core.
    const r = await window.axe.run(document, { resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}${v.nodes.length > 4 ? ` … ${v.nodes.length} in all` : ''}`);
  });
  return found;
}

export default async function ({ browser }) {
  const server = await startServer();
  const base = server.base;
  const api = (path, init) => getJSON(`${base}${path}`, init);
  const json = (method, body) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  const issue = await ingest(base, 'a11y.pdf', samplePDF());
  const first = (await api(`/api/magazine/${issue.id}/pages/1`)).regions[0];
  const made = await api(`/api/magazine/${issue.id}/articles`, json('POST', { title: 'Access for all', regions: [{ page: 1, region: first.id }] }));
  const article = made.article ?? made;
  const form = new FormData();
  form.append('file', new Blob([readFileSync(novel)], { type: 'text/plain' }), 'the-ross-household.txt');
  const up = await fetch(`${base}/api/audiobook/books`, { method: 'POST', body: form });
  check(up.ok, `the book uploads: ${up.status}`);
  const bookId = (await up.json()).id;
  // Cards to show (loopback ports nothing listens on) and a cast of characters.
  await api('/api/engines/gateway', json('PUT', { kind: 'llm', base_url: 'http://127.0.0.1:9/' }));
  await api('/api/engines/pictures', json('PUT', { kind: 'image', base_url: 'http://127.0.0.1:10/' }));
  {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/#/characters`);
    await page.getByTestId('extract-file').setInputFiles(novel);
    await page.getByTestId('extract').click();
    await page.getByTestId('character-card').first().waitFor({ timeout: SLOW });
    await context.close();
  }
  await waitUntil('the book is ready', () => api(`/api/audiobook/books/${bookId}`), (b) => !b.status || b.status === 'ready', { timeout: SLOW });

  // Each view, and what shows it is drawn.
  const views = [
    ['the issue list', '#/magazine', (p) => p.getByTestId('issue-status').first().waitFor()],
    ['the review page', `#/magazine/${issue.id}/1`, (p) => p.locator('li[data-region]').first().waitFor()],
    ['the reader', `#/magazine/${issue.id}/articles/${article.id}`, (p) => p.getByRole('heading', { name: 'Access for all' }).first().waitFor()],
    ['the audiobook list', '#/audiobook', (p) => p.getByTestId('ab-file').waitFor()],
    ['the book', `#/audiobook/${bookId}`, (p) => p.getByTestId('ab-title').waitFor()],
    ['characters', '#/characters', (p) => p.getByTestId('character-card').first().waitFor()],
    ['voices', '#/voices', (p) => p.locator('h2').first().waitFor()],
    ['engines', '#/engines', (p) => p.getByText('gateway').first().waitFor()],
    ['settings', '#/settings', (p) => p.getByLabel('Instance name').waitFor()],
  ];

  for (const [width, height] of [[1440, 900], [375, 800]]) {
    await test(`a11y: no serious or critical axe-core violation on any view at ${width} px`, async () => {
      // bypassCSP: the app's policy rightly refuses axe-core's injected script.
      const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
      const page = await context.newPage();
      const failures = [];
      for (const [name, hash, drawn] of views) {
        await page.goto(`${base}/${hash}`);
        await drawn(page);
        await page.waitForLoadState('networkidle');
        for (const v of await violations(page)) failures.push(`${name}: ${v}`);
      }
      await context.close();
      check(failures.length === 0, `violations:\n       ${failures.join('\n       ')}`);
    });
  }

  await test('a11y: the first Tab reaches a skip link that moves focus to the main content', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/#/settings`);
    await page.getByLabel('Instance name').waitFor();
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => ({ text: document.activeElement?.textContent?.trim(), href: document.activeElement?.getAttribute('href') }));
    check(first.text === 'Skip to content', `the first Tab stop is the skip link: ${JSON.stringify(first)}`);
    check(await page.locator(':focus').isVisible(), 'the skip link is visible when focused');
    await page.keyboard.press('Enter');
    const to = await page.evaluate(() => document.activeElement?.id);
    check(to === 'main', `Enter moves focus to the main content: ${to}`);
    await context.close();
  });
}
