// e2e: the article reader. An article approved on its page opens in the
// reader as clean text with its figure; a narrator (espeak-ng, built in) is
// picked and Listen plays while the render is still speaking, highlighting
// each sentence; with figure descriptions on, the figure's description is a
// chunk of its own and is highlighted; the issue downloads as an M4B with a
// chapter per approved article (checked with ffprobe); and a podcast is
// written by a stand-in LLM (chat completions on 127.0.0.1), edited, voiced
// and heard.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifacts, check, cleanups, createHTTPServer, freePort, getJSON, ingest, SLOW, test, waitUntil } from '../harness.mjs';
import { makePDF } from '../pdf.mjs';

/** Two one-page articles: a headline, a byline and a paragraph of short sentences each. */
function readerPDF() {
  const page = (head, by, lines) => ({
    lines: [
      { x: 72, top: 60, size: 24, bold: true, text: head },
      { x: 72, top: 100, size: 10, text: by },
      ...lines.map((text, j) => ({ x: 72, top: 360 + j * 12, size: 10, text })),
    ],
  });
  return makePDF([
    page('Harbour Reborn', 'By Ada Lovelace', ['The quay was rebuilt in the spring.', 'Boats came back to the bay in May.', 'The harbour master was pleased.']),
    page('Storm Season Ahead', 'By Mary Somerville', ['Forecasters expect strong winds.', 'Sailors should check their moorings.']),
  ]);
}

/** Has the page's player play (again, once it ended): the article is short, a busy machine may have heard it all. */
async function playing(page) {
  const player = page.getByTestId('player');
  const state = await player.getAttribute('data-state');
  if (state === 'ended') await player.getByRole('button', { name: 'Play again', exact: true }).click();
  if (state === 'paused') await player.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForFunction(() => ['playing', 'waiting'].includes(document.querySelector('[data-testid=player]')?.dataset.state), null, { timeout: 20000 });
}

/** Waits until a stream player has played its first audio; a timeout says what the player showed. */
async function firstAudio(player, timeout) {
  try {
    await player.and(player.page().locator('[data-first-audio-ms]')).waitFor({ timeout });
  } catch (e) {
    throw new Error(`no audio played: ${JSON.stringify(await player.evaluate((el) => ({ ...el.dataset, text: el.innerText })).catch(() => 'no player'))}\n${e}`);
  }
  return Number(await player.getAttribute('data-first-audio-ms'));
}

const json = (method, body, headers = {}) => ({ method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

export default async function ({ server, browser }) {
  const base = server.base;
  const api = (path, init) => getJSON(`${base}${path}`, init);
  const issue = await ingest(base, 'reader.pdf', readerPDF());
  const doc = `/api/magazine/${issue.id}`;
  const regions = async (n) => (await api(`${doc}/pages/${n}`)).regions;
  const byText = (list, start) => list.find((r) => (r.text ?? '').startsWith(start));

  // A figure between the byline and the text, described by hand.
  const p1 = await api(`${doc}/pages/1`);
  const fig = (await api(`${doc}/pages/1/regions`, json('POST', { bbox: [72, 140, 300, 180], kind: 'figure' }, { 'If-Match': String(p1.version) }))).region;
  const description = 'A map shows the new quay beside the old lighthouse.';
  await api(`${doc}/images/1-${fig.id}`, json('PATCH', { description }));
  const r1 = await regions(1);
  const reads = (list) => list.filter((r) => ['headline', 'byline', 'paragraph'].includes(r.kind)).map((r) => ({ page: r.page ?? 0, region: r.id }));
  const refs1 = reads(r1).map((r) => ({ page: 1, region: r.region }));
  const refs2 = reads(await regions(2)).map((r) => ({ page: 2, region: r.region }));
  check(byText(r1, 'Harbour Reborn') && byText(r1, 'The quay') && refs2.length >= 2, `page regions: ${JSON.stringify(r1.map((r) => [r.kind, r.text]))}`);
  const a1 = (await api(`${doc}/articles`, json('POST', { title: 'Harbour Reborn', regions: refs1 }))).article;
  await api(`${doc}/articles/${a1.id}`, json('PATCH', { images: [{ page: 1, region: fig.id }] }));
  const a2 = (await api(`${doc}/articles`, json('POST', { title: 'Storm Season Ahead', regions: refs2 }))).article;
  await api(`${doc}/articles/${a2.id}/approve`, json('POST', { regions: refs2, images: [] }));

  // The built-in espeak-ng voice for American English.
  const voice = (await api('/api/voices?language=en-us&source=builtin&engine=espeak-ng&limit=5')).items[0];
  check(voice, 'espeak-ng has an en-us voice');

  const context = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
  const page = await context.newPage();
  const reader = `${base}/#/magazine/${issue.id}/articles/${a1.id}`;

  await test('reader: approve an article on its page, open it from the issue, read its text and figure', async () => {
    await page.goto(`${base}/#/magazine/${issue.id}/1`);
    await page.locator(`.articles [data-article="${a1.id}"]`).getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('review-status').filter({ hasText: 'Article approved.' }).waitFor();
    await page.goto(`${base}/#/magazine/${issue.id}`);
    const row = page.locator(`.articles-list [data-article="${a1.id}"]`);
    await row.getByText('approved').waitFor();
    await row.getByRole('link', { name: 'Harbour Reborn' }).click();
    await page.getByTestId('reader-title').filter({ hasText: 'Harbour Reborn' }).waitFor();
    check(page.url() === reader, `the reader's address: ${page.url()}`);
    await page.getByTestId('reader-figure').waitFor();
    const text = await page.getByTestId('reader-text').innerText();
    for (const want of ['By Ada Lovelace', 'The quay was rebuilt in the spring.', description]) check(text.includes(want), `the reader shows ${JSON.stringify(want)}: ${text}`);
    check(!text.includes('Harbour Reborn\nHarbour Reborn'), 'the headline that repeats the title is shown once');
    const img = page.getByTestId('reader-figure').locator('img');
    await img.waitFor();
    check(await img.evaluate((el) => el.complete && el.naturalWidth > 0), 'the figure crop loads');
    // Approved first in the reader's list, both marked.
    const toc = await page.getByRole('navigation', { name: 'Articles of the issue' }).locator('li').allInnerTexts();
    check(toc.length === 2 && toc.every((t) => t.includes('approved')), `the issue's articles: ${toc}`);
  });

  await test('reader: pick a narrator (espeak-ng) with a preview; Listen plays at once and highlights the second sentence', async () => {
    const picker = page.getByTestId('narrator');
    await picker.getByRole('searchbox').fill(voice.name);
    await picker.getByRole('listbox').locator(`option[value="${voice.id}"]`).waitFor();
    await picker.getByRole('listbox').selectOption(voice.id);
    await picker.getByTestId('narrator-chosen').filter({ hasText: voice.name }).waitFor();
    await picker.getByRole('button', { name: 'Preview' }).click();
    await picker.getByTestId('audio-player').waitFor();
    check(await page.getByTestId('descriptions-toggle').isChecked() === false, 'figure descriptions are off by default');

    await page.getByTestId('listen').click();
    const player = page.getByTestId('player');
    const first = await firstAudio(player, 60000);
    await page.screenshot({ path: join(artifacts, 'reader-listening.png'), fullPage: true });
    const render = await player.getAttribute('data-render');
    console.log(`     Listen → first audio (espeak-ng, small article): ${first} ms`);
    // The second chunk's sentence is highlighted while it plays (the render
    // may still be speaking it: wait until it is spoken, or the render ended).
    const { chunks } = await waitUntil('the render has spoken two chunks, or ended', () => api(`/api/speech/renders/${render}/chunks?from=0&limit=100`),
      (l) => l.chunks.length >= 2 || l.next == null);
    check(chunks.length >= 2, `the render lists two chunks: ${JSON.stringify(chunks.map((c) => c.text))}`);
    const seen = await (await page.waitForFunction((want) => {
      const p = document.querySelector('[data-testid=player]')?.dataset;
      if (document.querySelector('[data-testid=reader-text] mark[aria-current]')?.textContent === want) return 'seen';
      return p && (p.state === 'ended' || Number(p.playing) > 1) ? 'passed' : false;
    }, chunks[1].text, { timeout: 60000 })).jsonValue();
    if (seen === 'passed') {
      // A busy machine played past the short sentence before a frame showed it: paused at its start, it is highlighted.
      await playing(page);
      await player.getByRole('button', { name: 'Pause', exact: true }).click();
      await player.getByRole('slider', { name: 'Seek' }).fill(String((chunks[0].duration_ms + 50) / 1000));
      await page.waitForFunction((want) => document.querySelector('[data-testid=reader-text] mark[aria-current]')?.textContent === want, chunks[1].text, { timeout: 10000 });
    }
    check(Number(await player.getAttribute('data-playing')) >= 1, 'the player is on the second chunk or later');
    // Pause holds the sentence; play goes on.
    await playing(page);
    await player.getByRole('button', { name: 'Pause', exact: true }).click();
    check((await player.getAttribute('data-state')) === 'paused', 'paused');
    await player.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=player]')?.dataset.state !== 'paused');
  });

  await test('reader: with figure descriptions on, the description is a chunk of its own and is highlighted, also when a seek after the end goes to it; choices are remembered', async () => {
    await page.getByTestId('descriptions-toggle').check();
    await page.getByTestId('player').locator('select').selectOption('3');
    const before = await page.getByTestId('player').getAttribute('data-render');
    await page.getByTestId('listen').click();
    const player = page.getByTestId('player');
    await page.waitForFunction((old) => {
      const p = document.querySelector('[data-testid=player]');
      return p && p.dataset.render !== old && p.dataset.firstAudioMs !== undefined;
    }, before, { timeout: 60000 });
    const render = await player.getAttribute('data-render');
    await page.waitForFunction((want) => document.querySelector('[data-testid=figure-description] mark[aria-current]')?.textContent === want, description, { timeout: SLOW });
    const all = await api(`/api/speech/renders/${render}/chunks?from=0&limit=100`);
    check(all.chunks.some((c) => c.text === description), `the description is spoken: ${JSON.stringify(all.chunks.map((c) => c.text))}`);
    // Once it has played to the end, a seek to the description highlights it again.
    await player.and(page.locator('[data-state=ended]')).waitFor({ timeout: SLOW });
    const done = await api(`/api/speech/renders/${render}`);
    const at = done.timings.chapters.flatMap((c) => c.sentences).find((x) => x.text === description);
    check(at, `the timings hold the description: ${JSON.stringify(done.timings)}`);
    await player.getByRole('slider', { name: 'Seek' }).fill(String((at.start_ms + 50) / 1000));
    await page.waitForFunction((want) => document.querySelector('[data-testid=figure-description] mark[aria-current]')?.textContent === want, description, { timeout: 10000 });
    await page.reload();
    await page.getByTestId('reader-title').waitFor();
    check(await page.getByTestId('descriptions-toggle').isChecked(), 'the toggle is remembered');
    check((await page.getByTestId('narrator-chosen').innerText()).includes(voice.name), 'the narrator is remembered');
  });

  await test('reader: Download issue (M4B) has a titled chapter per approved article', async () => {
    const dl = page.getByTestId('issue-download');
    await dl.getByRole('button', { name: 'Download issue (M4B)' }).click();
    const link = page.getByTestId('issue-download-link');
    await link.waitFor({ timeout: SLOW });
    const href = await link.evaluate((a) => a.href);
    const res = await fetch(href);
    check(res.ok, `the M4B downloads (${res.status})`);
    const dir = mkdtempSync(join(tmpdir(), 'lectern-e2e-m4b-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'issue.m4b');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const chapters = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_chapters', '-of', 'json', file], { encoding: 'utf8' })).chapters;
    const titles = chapters.map((c) => c.tags?.title);
    console.log(`     issue M4B chapters: ${chapters.map((c) => `${c.tags?.title} ${Number(c.start_time).toFixed(1)}–${Number(c.end_time).toFixed(1)} s`).join('; ')}`);
    check(JSON.stringify(titles) === JSON.stringify(['Harbour Reborn', 'Storm Season Ahead']), `one chapter per approved article, titled: ${JSON.stringify(titles)}`);
  });

  await test('reader: podcast with a stand-in LLM — generate, see the script, edit a turn, voice it and hear it', async () => {
    const script = { turns: [
      { host: 0, text: 'Welcome. Today we read Harbour Reborn by Ada Lovelace.' },
      { host: 1, text: 'The quay was rebuilt in the spring.' },
      { host: 0, text: 'Boats came back to the bay in May 1999.' },
      { host: 1, text: 'The harbour master was pleased. Thanks for listening.' },
    ] };
    let calls = 0;
    const port = await freePort();
    const llm = createHTTPServer((req, res) => {
      req.resume();
      res.setHeader('Content-Type', 'application/json');
      if (req.url !== '/v1/chat/completions') return res.writeHead(404).end('{"error":{"message":"not here"}}');
      calls++;
      res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'host-writer',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(script) } }] }));
    });
    await new Promise((r) => llm.listen(port, '127.0.0.1', r));
    cleanups.push(() => llm.close());
    await api('/api/settings', json('PUT', { llm_url: `http://127.0.0.1:${port}/v1`, llm_model: 'host-writer' }));

    const pod = page.getByTestId('podcast');
    for (const i of [0, 1]) {
      const picker = pod.getByTestId(`host-${i}-voice`);
      await picker.getByRole('searchbox').fill(voice.name);
      await picker.getByRole('listbox').locator(`option[value="${voice.id}"]`).waitFor();
      await picker.getByRole('listbox').selectOption(voice.id);
    }
    await pod.getByTestId('host-1-name').fill('Grace');
    await pod.getByTestId('podcast-minutes').fill('1');
    await pod.getByRole('button', { name: /Generate/ }).click();
    // An invented year: the grounding check flags it (after the retries the server makes), and the page marks it.
    await pod.getByTestId('podcast-note').filter({ hasText: 'Script ready' }).waitFor({ timeout: 60000 });
    check(calls >= 1, 'the stand-in LLM wrote it');
    await pod.getByTestId('podcast-flagged').waitFor();
    const flagged = await pod.locator('li.flagged mark.flag').allInnerTexts();
    check(flagged.includes('1999'), `the invented number is marked: ${flagged}`);
    const shown = await pod.getByTestId('podcast-script').innerText();
    check(shown.includes('Grace:') && shown.includes('The quay was rebuilt in the spring.'), `the script is shown with its hosts: ${shown}`);
    check((await pod.getByTestId('podcast-source').innerText()).includes('LLM'), 'its source is shown');

    await pod.getByRole('button', { name: 'Edit turns' }).click();
    await pod.getByRole('textbox', { name: /^Turn 3/ }).fill('Boats came back to the bay in May, as the article says.');
    await pod.getByRole('button', { name: 'Save script' }).click();
    await pod.getByTestId('podcast-note').filter({ hasText: 'Script saved.' }).waitFor();
    const saved = await api(`${doc}/articles/${a1.id}/podcast`);
    check(saved.source === 'edited' && saved.script.turns[2].text.includes('as the article says'), `the edit is saved: ${JSON.stringify(saved.script.turns[2])}`);
    check(!(saved.violations ?? []).length, `the edit removed the flagged number: ${JSON.stringify(saved.violations)}`);
    await pod.getByText('grounded', { exact: true }).waitFor();

    await pod.getByTestId('podcast-voice').click();
    const player = page.getByTestId('player');
    await player.and(page.locator('[data-kind=podcast]')).waitFor({ timeout: 60000 });
    await firstAudio(player, 60000);
    await page.waitForFunction(() => !!document.querySelector('[data-testid=podcast] mark[aria-current]'), null, { timeout: 60000 });
    const render = await player.getAttribute('data-render');
    // The first turn plays while the render is still speaking the rest: the
    // edited (third) turn is listed once spoken, or never if the render ends
    // without it. Its chunk list is read in that state, not at first audio.
    const voiced = (l) => l.chunks.some((c) => c.text.includes('as the article says'));
    const { chunks } = await waitUntil('the render has spoken the edited turn, or ended', () => api(`/api/speech/renders/${render}/chunks?from=0&limit=100`),
      (l) => voiced(l) || l.next == null);
    check(voiced({ chunks }), `the edited turn is voiced: ${JSON.stringify(chunks.map((c) => c.text))}`);
    await pod.screenshot({ path: join(artifacts, 'reader-podcast.png') });

    // An edit of a script that changed elsewhere meanwhile: reloaded, and said so.
    await pod.getByRole('button', { name: 'Edit turns' }).click();
    const now = await api(`${doc}/articles/${a1.id}/podcast`);
    const turns = now.script.turns.map((t, i) => (i === 0 ? { ...t, text: 'Welcome, from another tab.' } : t));
    await api(`${doc}/articles/${a1.id}/podcast`, json('PUT', { turns }, { 'If-Match': String(now.version) }));
    await pod.getByRole('textbox', { name: /^Turn 2/ }).fill('The quay was rebuilt.');
    await pod.getByRole('button', { name: 'Save script' }).click();
    await pod.getByTestId('podcast-note').filter({ hasText: 'changed elsewhere' }).waitFor();
    check((await pod.getByTestId('podcast-script').innerText()).includes('Welcome, from another tab.'), 'the other edit is shown');
    check((await api(`${doc}/articles/${a1.id}/podcast`)).script.turns[1].text === 'The quay was rebuilt in the spring.', 'the stale edit was not saved');
  });

  await test('reader: Describe asks the vision engine (a failure says why and keeps the description); a hand edit saves; three sentences cannot', async () => {
    // A stand-in vision engine on 127.0.0.1 speaking chat completions; it fails until told otherwise.
    let fail = true;
    const port = await freePort();
    const vision = createHTTPServer((req, res) => {
      req.resume();
      res.setHeader('Content-Type', 'application/json');
      if (fail) return res.writeHead(500).end('{"error":{"message":"the vision model crashed"}}');
      res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'see',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'A chart of boat arrivals rising through May.' } }] }));
    });
    await new Promise((r) => vision.listen(port, '127.0.0.1', r));
    cleanups.push(() => vision.close());
    const before = await api('/api/settings');
    await api('/api/settings', json('PUT', { vision_ocr_url: `http://127.0.0.1:${port}/v1`, vision_ocr_fallback_url: '' }));
    cleanups.push(() => fetch(`${base}/api/settings`, json('PUT', { vision_ocr_url: before.vision_ocr_url, vision_ocr_fallback_url: before.vision_ocr_fallback_url })));

    const figure = page.getByTestId('reader-figure');
    const said = figure.getByTestId('figure-note').or(figure.getByTestId('figure-error'));
    await figure.getByRole('button', { name: 'Describe', exact: true }).click();
    await said.waitFor({ timeout: 60000 });
    const why = await said.innerText();
    check(/fail/i.test(why) && /crashed|500|vision/i.test(why), `a clear reason: ${why}`);
    check((await figure.getByTestId('figure-description').innerText()) === description, 'the description is kept');

    fail = false;
    await figure.getByRole('button', { name: 'Describe', exact: true }).click();
    await figure.getByTestId('figure-note').filter({ hasText: 'Described 1 of 1 figure.' }).waitFor({ timeout: 60000 });
    await figure.getByTestId('figure-description').filter({ hasText: 'A chart of boat arrivals rising through May.' }).waitFor();
    // Describe all: every figure has a description now, so nothing is asked (redo is not asked for).
    await page.getByRole('button', { name: 'Describe all figures (1)' }).click();
    await page.getByTestId('describe-all-note').waitFor({ timeout: 60000 });
    const all = await page.getByTestId('describe-all-note').innerText();
    check(/already has a description|Described 0 of/.test(all), `describe all: ${all}`);

    await figure.getByRole('button', { name: 'Edit description' }).click();
    const box = figure.getByLabel(/^Description/);
    await box.fill('One. Two. Three.');
    check(await figure.getByRole('button', { name: 'Save description' }).isDisabled(), 'three sentences cannot be saved');
    await box.fill('A harbour map. The new quay is marked in red.');
    await figure.getByRole('button', { name: 'Save description' }).click();
    await figure.getByTestId('figure-note').filter({ hasText: 'Description saved.' }).waitFor();
    const r = (await regions(1)).find((x) => x.id === fig.id);
    check(r.description === 'A harbour map. The new quay is marked in red.', `saved on the server: ${r.description}`);
    await figure.getByTestId('figure-description').filter({ hasText: 'The new quay is marked in red.' }).waitFor();
  });

  await context.close();
}
