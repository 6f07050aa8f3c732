// e2e: the screenshots the user docs show, taken from the real app on a
// server of their own (so they do not depend on what other specs left): an
// issue with two approved articles, its review workspace, the reader, a
// novel's cast, the voice library, engine cards and Settings. They go to
// e2e/artifacts/docs; with LECTERN_DOCS_SCREENSHOTS=1 into docs/images, the
// files README.md and docs/*.md link (commit them after a UI change).
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { artifacts, check, getJSON, importBook, ingest, startServer, test, waitBookReady } from '../harness.mjs';
import { makePDF } from '../pdf.mjs';

const out = process.env.LECTERN_DOCS_SCREENSHOTS === '1'
  ? resolve(new URL('../../../docs/images', import.meta.url).pathname)
  : join(artifacts, 'docs');
const VIEWPORT = { width: 1000, height: 700 };
const novel = resolve(new URL('../books/the-ross-household.txt', import.meta.url).pathname);
const json = (method, body) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** A two-page issue: an article on each page, a headline, a byline and paragraphs. */
function issuePDF() {
  const para = (top, lines) => lines.map((text, j) => ({ x: 72, top: top + j * 13, size: 10.5, text }));
  return makePDF([
    {
      lines: [
        { x: 72, top: 60, size: 26, bold: true, text: 'Harbour Reborn' },
        { x: 72, top: 100, size: 11, text: 'By Ada Lovelace' },
        ...para(140, [
          'The quay was rebuilt in the spring, stone by stone, after two winters of storms.',
          'Boats came back to the bay in May, and the fish market opened its doors again.',
          'The harbour master was pleased: forty berths are taken, and more are asked for.',
        ]),
        ...para(200, [
          'Visitors walk the new promenade from the lighthouse to the old customs house.',
          'The town hopes the summer will bring the ferries back from the islands too.',
        ]),
      ],
    },
    {
      lines: [
        { x: 72, top: 60, size: 26, bold: true, text: 'Storm Season Ahead' },
        { x: 72, top: 100, size: 11, text: 'By Mary Somerville' },
        ...para(140, [
          'Forecasters expect strong winds from October, with the first gales in the north.',
          'Sailors should check their moorings, and the lifeboat crew asks for volunteers.',
        ]),
      ],
    },
  ]);
}

/** The width and height a PNG file declares (its IHDR chunk). */
function pngSize(file) {
  const b = readFileSync(file);
  check(b.subarray(1, 4).toString('latin1') === 'PNG', `${file} is a PNG`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), bytes: b.length };
}

export default async function ({ browser }) {
  mkdirSync(out, { recursive: true });
  const server = await startServer();
  const base = server.base;
  const api = (path, init) => getJSON(`${base}${path}`, init);
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const shot = async (name) => {
    const file = join(out, `${name}.png`);
    await page.screenshot({ path: file });
    const size = pngSize(file);
    const want = page.viewportSize();
    check(size.width === want.width && size.height === want.height, `${name}.png is ${size.width}×${size.height}, want the viewport's ${want.width}×${want.height}`);
    check(size.bytes < 400_000, `${name}.png stays small: ${size.bytes} bytes`);
  };

  const issue = await ingest(base, 'harbour-gazette.pdf', issuePDF());
  const doc = `/api/magazine/${issue.id}`;
  const articles = [];
  for (const n of [1, 2]) {
    const regions = (await api(`${doc}/pages/${n}`)).regions;
    const refs = regions.filter((r) => ['headline', 'byline', 'paragraph'].includes(r.kind)).map((r) => ({ page: n, region: r.id }));
    const title = regions.find((r) => r.kind === 'headline')?.text;
    check(title && refs.length >= 3, `page ${n} has a headline, a byline and text: ${JSON.stringify(regions.map((r) => [r.kind, r.text]))}`);
    const a = (await api(`${doc}/articles`, json('POST', { title, regions: refs }))).article;
    await api(`${doc}/articles/${a.id}/approve`, json('POST', { regions: refs, images: [] }));
    articles.push(a);
  }

  await test('docs screenshots: the issue page with its pages and approved articles', async () => {
    await page.goto(`${base}/#/magazine/${issue.id}`);
    for (const a of articles) await page.locator(`.articles-list [data-article="${a.id}"]`).getByText('approved').waitFor();
    await page.getByRole('link', { name: 'Page 2', exact: true }).waitFor();
    await shot('issue');
  });

  await test('docs screenshots: the review workspace with a region selected', async () => {
    await page.goto(`${base}/#/magazine/${issue.id}/1`);
    const headline = page.locator('svg.overlay rect[data-kind=headline]');
    await headline.waitFor();
    await headline.click();
    await page.locator('svg.overlay rect[data-kind=headline].selected').waitFor();
    await shot('review');
  });

  await test('docs screenshots: the reader of an approved article', async () => {
    // Taller, so the article's text shows below the narrator and Listen.
    await page.setViewportSize({ width: VIEWPORT.width, height: 1050 });
    await page.goto(`${base}/#/magazine/${issue.id}/articles/${articles[0].id}`);
    await page.getByText('The quay was rebuilt in the spring', { exact: false }).first().waitFor();
    await page.getByTestId('listen').and(page.locator(':enabled')).waitFor();
    await shot('reader');
    await page.setViewportSize(VIEWPORT);
  });

  await test('docs screenshots: a novel\'s cast and voices', async () => {
    const book = await importBook(base, 'the-ross-household.txt', readFileSync(novel));
    check(book.status === 'ready', `the book imported: ${book.status} ${book.error ?? ''}`);
    await page.goto(`${base}/#/audiobook/${book.id}`);
    await waitBookReady(page);
    const panel = page.getByTestId('ab-cast-panel');
    await panel.locator('li[data-character]').first().waitFor();
    await page.evaluate(() => document.querySelector('[data-testid=ab-cast-panel]').scrollIntoView({ block: 'start' }));
    await shot('audiobook-cast');
  });

  await test('docs screenshots: the voice library', async () => {
    await page.goto(`${base}/#/voices`);
    await page.getByTestId('voices-count').filter({ hasText: 'Showing 20 of' }).waitFor();
    await shot('voices');
  });

  await test('docs screenshots: engine cards', async () => {
    await api('/api/engines/local-llm', json('PUT', { kind: 'llm', base_url: 'http://127.0.0.1:4000/v1', model: 'qwen3-32b' }));
    await api('/api/engines/kokoro', json('PUT', { kind: 'tts', base_url: 'http://127.0.0.1:8880/v1' }));
    await page.goto(`${base}/#/engines`);
    await page.getByRole('listitem', { name: 'Engine local-llm' }).waitFor();
    await page.getByRole('listitem', { name: 'Engine kokoro' }).waitFor();
    // The built-in engines' cards come from the server's check; shoot them found or missing, not loading.
    await page.locator('[data-engine="ffmpeg"]').waitFor();
    await shot('engines');
  });

  await test('docs screenshots: Settings', async () => {
    await page.goto(`${base}/#/settings`);
    await page.getByLabel('LLM URL').waitFor();
    await shot('settings');
  });

  await context.close();
}
