// e2e: what a tester found broken (issue 33, item 3), each at 1440×900 and
// at 375 px wide: the pager offers no page after the last; the ingest
// progress gives its count once; a `hidden` element stays hidden whatever
// its class sets (after playback ends there is one play button and one speed
// select); the keyboard focus goes to the player after Listen, to the next
// item after Delete and to the restored item after Undo; failures read as a
// whole human sentence with the technical cause apart (a PDF cut short, an
// engine card on a closed loopback port, a binary .txt book); a stray full
// stop never doubles a period; the chapter heading shows once; the vision
// OCR placeholder names the vision engine's usual port; and
// `LECTERN_ADDR=… make run` serves there.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { check, freePort, getJSON, importBook, ingest, SLOW, test, waitUntil } from '../harness.mjs';
import { makePDF } from '../pdf.mjs';

const repo = resolve(new URL('../../../', import.meta.url).pathname);
const viewports = [{ name: '1440×900', width: 1440, height: 900 }, { name: '375 px', width: 375, height: 800 }];
const json = (method, body) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** Two one-page articles; the first paragraph is followed by a full stop alone on the next line. */
function testerPDF() {
  const page = (head, lines) => ({
    lines: [
      { x: 72, top: 60, size: 24, bold: true, text: head },
      ...lines.map((text, j) => ({ x: 72, top: 200 + j * 12, size: 10, text })),
      { x: 72, top: 400, size: 10, text: 'A second paragraph stands apart from the first.' },
    ],
  });
  return makePDF([
    page('Bellows Made Simple', ['The bellows type is made of aluminum alloy only.', '.']),
    page('Storm Season Ahead', ['Forecasters expect strong winds this year.']),
  ]);
}

/** The element that has the keyboard focus, described. */
const focused = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return { tag: a?.tagName, text: a?.textContent?.trim().slice(0, 80), region: a?.closest('[data-region]')?.getAttribute('data-region') ?? null,
    article: a?.closest('[data-article]')?.getAttribute('data-article') ?? null, inPlayer: !!a?.closest('[data-testid=player]') };
});

/** Every element marked hidden in the document is not displayed (the class fix: [hidden] wins over any display rule). */
const hiddenShown = (page) => page.evaluate(() => [...document.querySelectorAll('[hidden]')]
  .filter((el) => getComputedStyle(el).display !== 'none').map((el) => el.outerHTML.slice(0, 120)));

export default async function ({ server, browser }) {
  const base = server.base;
  const api = (path, init) => getJSON(`${base}${path}`, init);
  const issue = await ingest(base, 'tester.pdf', testerPDF());
  const doc = `/api/magazine/${issue.id}`;
  const regionsOf = async (n) => (await api(`${doc}/pages/${n}`)).regions;
  const refs = (list, n) => list.filter((r) => ['headline', 'paragraph'].includes(r.kind)).map((r) => ({ page: n, region: r.id }));

  for (const vp of viewports) {
    const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height } });
    const page = await context.newPage();
    page.on('dialog', (d) => d.accept());

    await test(`tester (${vp.name}): the pager offers the next page only where there is one`, async () => {
      await page.goto(`${base}/#/magazine/${issue.id}/1`);
      const pager = page.getByRole('navigation', { name: 'Pages' });
      await pager.getByRole('link', { name: 'Page 2 ›' }).waitFor();
      await page.goto(`${base}/#/magazine/${issue.id}/2`);
      await page.getByRole('heading', { name: /^Page 2/ }).waitFor();
      await page.getByTestId('page-engine').waitFor();
      await pager.getByRole('link', { name: '‹ Page 1' }).waitFor();
      // The issue's page count arrives with the issue: wait for it, then look.
      await waitUntil('the pager knows the page count', () => page.evaluate(() => document.querySelectorAll('nav.pager a').length), (n) => n >= 2);
      const links = await pager.getByRole('link').allInnerTexts();
      check(!links.some((t) => t.includes('Page 3')), `the last page offers no next page: ${links}`);
      check((await hiddenShown(page)).length === 0, `nothing marked hidden is displayed on the page view: ${await hiddenShown(page)}`);
    });

    await test(`tester (${vp.name}): a stray full stop on its own line does not double the paragraph's period`, async () => {
      await page.goto(`${base}/#/magazine/${issue.id}/1`);
      const texts = page.locator('.region-list textarea');
      await texts.first().waitFor();
      const all = await texts.evaluateAll((els) => els.map((el) => el.value));
      check(all.some((t) => t.includes('aluminum alloy only.')), `the paragraph is read: ${JSON.stringify(all)}`);
      check(!all.some((t) => /[.!?,;:]\s+[.!?,;:]/.test(t)), `no punctuation follows punctuation after a space: ${JSON.stringify(all)}`);
    });

    await test(`tester (${vp.name}): the ingest progress gives the page count once`, async () => {
      // The issue as the server answers mid-ingest with no page busy (one
      // done, two queued): the state in which the count was shown twice.
      const route = async (r) => {
        if (r.request().method() !== 'GET') return r.continue();
        const body = { id: issue.id, title: 'Mid-ingest', status: 'processing', source_key: '', page_count: 3, pages_done: 1, revision: 1,
          created: new Date().toISOString(), updated: new Date().toISOString(),
          pages: [{ page: 1, step: 'done', done: true }, { page: 2, step: 'queued', done: false }, { page: 3, step: 'queued', done: false }] };
        return r.fulfill({ status: 200, contentType: 'application/json', headers: { ETag: '"mid"' }, body: JSON.stringify(body) });
      };
      const issueURL = (u) => /\/api\/magazine\/[a-z0-9]+$/.test(new URL(u).pathname);
      await page.route(issueURL, route);
      try {
        await page.goto(`${base}/#/magazine`);
        await page.locator('#pdf').setInputFiles({ name: 'mid.pdf', mimeType: 'application/pdf', buffer: testerPDF() });
        await page.getByRole('button', { name: 'Upload' }).click();
        const status = page.getByTestId('ingest-status').filter({ hasText: 'of 3 pages' });
        await status.waitFor();
        const text = await status.innerText();
        check(text.split('of 3 pages').length === 2, `the count is given once: ${JSON.stringify(text)}`);
      } finally {
        await page.unroute(issueURL, route);
      }
    });

    await test(`tester (${vp.name}): a PDF cut short fails with a whole sentence saying what to do, the cause apart`, async () => {
      const whole = testerPDF();
      await page.goto(`${base}/#/magazine`);
      await page.locator('#pdf').setInputFiles({ name: 'cut.pdf', mimeType: 'application/pdf', buffer: whole.subarray(0, Math.floor(whole.length / 2)) });
      await page.getByRole('button', { name: 'Upload' }).click();
      // The server refuses it at once (local mode reads the file as it arrives).
      const note = page.getByTestId('upload-error').last();
      await note.waitFor({ timeout: SLOW });
      const shown = await note.locator('span').first().innerText();
      check(shown.includes('damaged or cut short') && shown.endsWith('upload the new copy.'), `the sentence is whole: ${JSON.stringify(shown)}`);
      check(!/xref|read context|…/.test(shown), `no technical cause, nothing cut: ${JSON.stringify(shown)}`);
      await note.getByText('Details').click();
      const cause = await note.locator('details').innerText();
      check(/Cause: corrupt/.test(cause) && !/(\b[\w ]+): \1:/.test(cause), `the cause is kept apart, without a repeated prefix: ${JSON.stringify(cause)}`);
      await note.locator('xpath=..').getByRole('button', { name: 'Dismiss' }).click();
    });

    await test(`tester (${vp.name}): an engine card on a closed port says nothing answered there, in full`, async () => {
      const port = await freePort(); // nothing listens on it
      const name = `closed-${vp.width}`;
      await page.goto(`${base}/#/engines`);
      await page.getByLabel('Name').fill(name);
      await page.getByLabel('Kind').selectOption('llm');
      await page.getByLabel('Base URL').fill(`http://127.0.0.1:${port}/`);
      await page.getByRole('button', { name: 'Add card' }).click();
      const card = page.getByRole('listitem', { name: `Engine ${name}` });
      await card.getByRole('button', { name: 'Connect' }).click();
      const note = page.getByTestId(`result-${name}`);
      await note.filter({ hasText: 'Nothing answered' }).waitFor();
      const short = await note.locator('span').first().innerText();
      check(short.includes(`127.0.0.1:${port}`) && short.endsWith('then try again.'), `the sentence names the address and is whole: ${JSON.stringify(short)}`);
      check(!/dial tcp|…/.test(short), `no network jargon in the sentence: ${JSON.stringify(short)}`);
      await note.getByText('Details').click();
      const details = await note.locator('details').innerText();
      check(details.includes('connection refused'), `the cause is in the details: ${JSON.stringify(details)}`);
      await page.evaluate((n) => fetch(`/api/engines/${n}`, { method: 'DELETE' }), name);
    });

    await test(`tester (${vp.name}): a binary .txt book is refused with a sentence naming the file once`, async () => {
      await page.goto(`${base}/#/audiobook`);
      await page.getByTestId('ab-file').setInputFiles({ name: 'binary.txt', mimeType: 'text/plain', buffer: Buffer.from([0, 1, 2, 3, 0, 255, 0, 7, 8, 0, 0, 0]) });
      await page.getByRole('button', { name: 'Upload' }).click();
      const err = page.getByTestId('ab-upload-error');
      await err.waitFor();
      const short = await err.locator('span').first().innerText();
      check(short.includes('binary.txt is not a text file') && short.endsWith('as an EPUB.'), `a whole sentence: ${JSON.stringify(short)}`);
      check(!short.includes('binary.txt: binary.txt') && (await err.innerText()).split('binary.txt: binary.txt').length === 1, `the file is named once: ${JSON.stringify(await err.innerText())}`);
    });

    await test(`tester (${vp.name}): the vision OCR URL placeholder names the vision engine's usual port, not the fallback's`, async () => {
      // The usual ports as the server assumes them for cards without a URL.
      const usual = {};
      for (const kind of ['vision-ocr', 'vision-ocr-fallback']) {
        await api(`/api/engines/usual-${kind}`, json('PUT', { kind }));
        usual[kind] = new URL((await api('/api/engines')).cards.find((c) => c.name === `usual-${kind}`).url).port;
        await fetch(`${base}/api/engines/usual-${kind}`, { method: 'DELETE' });
      }
      check(usual['vision-ocr'] !== usual['vision-ocr-fallback'], `two usual ports: ${JSON.stringify(usual)}`);
      await page.goto(`${base}/#/settings`);
      const primary = await page.getByLabel('Vision OCR URL', { exact: true }).getAttribute('placeholder');
      const fallback = await page.getByLabel('Fallback vision OCR URL').getAttribute('placeholder');
      check(new URL(primary).port === usual['vision-ocr'], `primary placeholder ${primary}, usual port ${usual['vision-ocr']}`);
      check(!fallback || new URL(fallback).port === usual['vision-ocr-fallback'], `fallback placeholder ${fallback}`);
    });

    await test(`tester (${vp.name}): the chapter heading shows once in the book view`, async () => {
      const book0 = 'THE LETTER\n\nCHAPTER I. The Post\n\nMary waited at the window all morning for the postman to come up the hill.\n\n'
        + '"Is there anything for me?" asked Mary.\n\nThe Captain shook his head. "Nothing today," said the Captain. "Perhaps tomorrow."\n\n'
        + 'CHAPTER II. The Reply\n\nThe letter came at last, sealed with green wax and smelling faintly of the sea.\n\n'
        + '"It is from my brother," said Mary.\n\n"Then read it aloud," said the Captain, and he sat down by the fire.\n';
      const book = await importBook(base, 'post.txt', book0);
      check(book.status === 'ready', `the book imported: ${book.status}`);
      await page.goto(`${base}/#/audiobook/${book.id}`);
      await page.getByTestId('ab-chapter-title').filter({ hasText: 'CHAPTER I. The Post' }).waitFor();
      const prose = page.getByTestId('ab-prose');
      await prose.getByText('Mary waited at the window', { exact: false }).waitFor();
      const text = await prose.innerText();
      check(!text.includes('The Post'), `the prose does not repeat the heading: ${JSON.stringify(text)}`);
      check((await hiddenShown(page)).length === 0, `nothing marked hidden is displayed in the book view: ${await hiddenShown(page)}`);
    });

    await test(`tester (${vp.name}): Delete and Undo leave the focus on the next region and on the restored one`, async () => {
      await page.goto(`${base}/#/magazine/${issue.id}/1`);
      const rows = page.locator('.region-list li[data-region]');
      await rows.first().waitFor();
      const ids = await rows.evaluateAll((els) => els.map((el) => el.dataset.region));
      check(ids.length >= 2, `page 1 has regions: ${ids}`);
      await rows.first().locator('button.kind').click();
      await page.getByRole('button', { name: 'Delete (1)' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Deleted.').waitFor();
      const afterDelete = await focused(page);
      check(afterDelete.region === ids[1] && afterDelete.tag === 'BUTTON', `after Delete the focus is on the next region: ${JSON.stringify(afterDelete)}`);
      await page.getByTestId('undo').focus();
      await page.keyboard.press('Enter');
      await page.getByText('Undone.').waitFor();
      const afterUndo = await focused(page);
      check(afterUndo.region === ids[0] && afterUndo.tag === 'BUTTON', `after Undo the focus is on the restored region: ${JSON.stringify(afterUndo)}`);
    });

    await test(`tester (${vp.name}): deleting an article leaves the focus on the next article`, async () => {
      const p2 = refs(await regionsOf(2), 2);
      const a = (await api(`${doc}/articles`, json('POST', { title: `Delete me ${vp.width}`, regions: p2.slice(0, 1) }))).article;
      const b = (await api(`${doc}/articles`, json('POST', { title: `Keep me ${vp.width}`, regions: p2.slice(1) }))).article;
      await page.goto(`${base}/#/magazine/${issue.id}`);
      const row = page.locator(`.articles-list [data-article="${a.id}"]`);
      await row.getByRole('button', { name: 'Delete' }).focus();
      await page.keyboard.press('Enter');
      await row.waitFor({ state: 'detached' });
      const f = await waitUntil('the focus settles after the delete', () => focused(page), (x) => x.tag !== 'BODY', { timeout: 5000 }).catch(() => focused(page));
      const remaining = (await api(`${doc}/articles`)).articles ?? [];
      check(f.article && remaining.some((x) => x.id === f.article) && f.tag === 'A', `the focus is on a remaining article's link: ${JSON.stringify(f)}`);
      await fetch(`${base}${doc}/articles/${b.id}`, { method: 'DELETE' });
    });

    await test(`tester (${vp.name}): Listen puts the focus on the player; after playback ends one play button and one speed select show`, async () => {
      const r1 = await regionsOf(1);
      const art = (await api(`${doc}/articles`, json('POST', { title: `Bellows ${vp.width}`, regions: refs(r1, 1) }))).article;
      await api(`${doc}/articles/${art.id}/approve`, json('POST', { regions: refs(r1, 1), images: [] }));
      const voice = (await api('/api/voices?language=en-us&source=builtin&engine=espeak-ng&limit=5')).items[0];
      check(voice, 'espeak-ng has an en-us voice');
      await page.goto(`${base}/#/magazine/${issue.id}/articles/${art.id}`);
      const picker = page.getByTestId('narrator');
      await picker.getByRole('searchbox').fill(voice.name);
      await picker.getByRole('listbox').locator(`option[value="${voice.id}"]`).waitFor();
      await picker.getByRole('listbox').selectOption(voice.id);
      await picker.getByTestId('narrator-chosen').filter({ hasText: voice.name }).waitFor();
      await page.getByTestId('listen').focus();
      await page.keyboard.press('Enter');
      const player = page.getByTestId('player');
      await player.waitFor({ timeout: SLOW });
      const f = await waitUntil('the focus lands in the player', () => focused(page), (x) => x.inPlayer, { timeout: 10000 }).catch(() => focused(page));
      check(f.inPlayer && f.tag === 'BUTTON', `after Listen the focus is on the player's button: ${JSON.stringify(f)}`);
      await player.and(page.locator('[data-state=ended]')).waitFor({ timeout: SLOW });
      const visible = async (l) => (await Promise.all((await l.all()).map((x) => x.isVisible()))).filter(Boolean).length;
      const shown = { selects: await visible(player.locator('select')), plays: await visible(player.getByRole('button', { name: /^(Play|Play again|Pause|Resume)$/ })) };
      check(shown.selects === 1 && shown.plays === 1, `one play button and one speed select: ${JSON.stringify(shown)}`);
      const leaks = await hiddenShown(page);
      check(leaks.length === 0, `elements marked hidden but displayed: ${JSON.stringify(leaks)}`);
    });

    await context.close();
  }

  await test('tester: LECTERN_ADDR=127.0.0.1:<port> make run serves on that port', async () => {
    const port = await freePort();
    const data = mkdtempSync(join(tmpdir(), 'lectern-make-run-'));
    // -o build: the binary is built already; make run's own command is what is checked.
    const make = spawn('make', ['-o', 'build', 'run'], {
      cwd: repo, detached: true, stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LECTERN_ADDR: `127.0.0.1:${port}`, LECTERN_DATA: data },
    });
    let log = '';
    make.stderr.on('data', (d) => (log += d));
    try {
      await waitUntil(`make run answers on port ${port}`, async () => {
        if (make.exitCode !== null) throw new Error(`make run exited ${make.exitCode}: ${log}`);
        return fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
      }, Boolean, { timeout: SLOW, detail: () => log });
    } finally {
      try { process.kill(-make.pid, 'SIGTERM'); } catch { /* already gone */ }
      rmSync(data, { recursive: true, force: true });
    }
  });
}
