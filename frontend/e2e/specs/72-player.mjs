// e2e: the app's one player (issue 33, item 2), in Chromium with espeak-ng.
// An article is listened to in the player docked at the bottom; a click on a
// sentence of the text plays from it; ±15 s and ±1 sentence by button and
// by key (keys typed into a field are the field's); the page follows the
// voice until the user scrolls, then "Back to the voice" brings it back; the
// player stays while the user goes to another page; after a reload the
// article resumes where it was paused. A book chapter is rendered on its
// own ("Render this chapter"), plays in the app, steps by sentence with its
// timings and resumes after a reload. At 375 px the player fits the width;
// axe-core finds no serious or critical violation in it at either width.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { artifacts, check, getJSON, importBook, ingest, SLOW, test, waitUntil } from '../harness.mjs';
import { makePDF } from '../pdf.mjs';

const SENTENCES = [
  'The lighthouse keeper climbed the stairs at dusk.',
  'He lit the great lamp and wound the clockwork.',
  'Ships far out at sea saw the beam sweep the water.',
  'A storm was coming from the west that night.',
  'The keeper wrote the wind speed in his logbook.',
  'By midnight the waves broke over the harbour wall.',
  'At dawn the sea was calm and the boats went out again.',
];

/** One article: a headline and a paragraph of seven sentences (about half a minute spoken). */
function playerPDF() {
  return makePDF([{
    lines: [
      { x: 72, top: 60, size: 24, bold: true, text: 'The Keeper' },
      ...SENTENCES.map((text, j) => ({ x: 72, top: 200 + j * 12, size: 10, text })),
    ],
  }]);
}

const BOOK = `THE KEEPER'S YEAR

CHAPTER I. Winter

Snow lay on the rocks for weeks, and the keeper kept the lamp burning every night of the long dark season.

"No ship will come," said the keeper.

CHAPTER II. Spring

The ice broke in the bay and the birds came back to the cliffs above the lighthouse.

The supply boat brought letters and bread. The keeper read every letter twice.

"Spring at last," said the boatman.

CHAPTER III. Summer

The days were long and the lamp was lit late, when the sea had gone quiet and grey.

"A fine evening," said the keeper.
`;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical violations axe-core finds in the player. */
async function playerViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const r = await window.axe.run({ include: [['[data-testid=player]']] }, { resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

const json = (method, body) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

export default async function ({ server, browser }) {
  const base = server.base;
  const api = (path, init) => getJSON(`${base}${path}`, init);
  const issue = await ingest(base, 'player.pdf', playerPDF());
  const doc = `/api/magazine/${issue.id}`;
  const regions = (await api(`${doc}/pages/1`)).regions;
  const refs = regions.filter((r) => ['headline', 'paragraph'].includes(r.kind)).map((r) => ({ page: 1, region: r.id }));
  const art = (await api(`${doc}/articles`, json('POST', { title: 'The Keeper', regions: refs }))).article;
  await api(`${doc}/articles/${art.id}/approve`, json('POST', { regions: refs, images: [] }));
  const voice = (await api('/api/voices?language=en-us&source=builtin&engine=espeak-ng&limit=5')).items[0];
  check(voice, 'espeak-ng has an en-us voice');

  // bypassCSP: the app's policy rightly refuses axe-core's injected script.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  const player = page.getByTestId('player');
  const attr = async (name) => player.getAttribute(name);
  const position = async () => Number(await attr('data-position-ms'));
  const state = (want) => page.waitForFunction((w) => document.querySelector('[data-testid=player]')?.dataset.state === w, want, { timeout: SLOW });
  const at = (want) => page.waitForFunction((w) => Number(document.querySelector('[data-testid=player]')?.dataset.positionMs) === w, want, { timeout: 10000 })
    .catch(async (e) => { throw new Error(`the player is at ${await position()} ms, want ${want}: ${e}`); });
  // Space until paused: from the end it plays again first (a busy machine may have heard the article out).
  const pauseBySpace = async () => {
    await page.evaluate(() => document.activeElement?.blur());
    if ((await attr('data-state')) === 'paused') return;
    if ((await attr('data-state')) === 'ended') {
      await page.keyboard.press('Space');
      await page.waitForFunction(() => document.querySelector('[data-testid=player]')?.dataset.state !== 'ended', null, { timeout: 20000 });
    }
    await page.keyboard.press('Space');
    await state('paused');
  };
  const highlighted = () => page.locator('[data-testid=reader-text] mark[aria-current]').textContent().catch(() => null);
  let render = '';
  let timeline = []; // the chunks as the player's timeline: text, start, end

  await test('player: Listen plays in the player docked at the bottom; a click on a sentence plays from it', async () => {
    await page.goto(`${base}/#/magazine/${issue.id}/articles/${art.id}`);
    const picker = page.getByTestId('narrator');
    await picker.getByRole('searchbox').fill(voice.name);
    await picker.getByRole('listbox').locator(`option[value="${voice.id}"]`).waitFor();
    await picker.getByRole('listbox').selectOption(voice.id);
    await picker.getByTestId('narrator-chosen').filter({ hasText: voice.name }).waitFor();
    await page.getByTestId('listen').click();
    await player.and(page.locator('[data-first-audio-ms]')).waitFor({ timeout: 60000 });
    render = await attr('data-render');
    check((await attr('data-kind')) === 'article', 'an article plays');
    const box = await player.boundingBox();
    check(box && Math.abs(box.y + box.height - 900) < 2, `the player is docked at the bottom: ${JSON.stringify(box)}`);
    // The whole render, as the player's timeline.
    const all = await waitUntil('the render is spoken', () => api(`/api/speech/renders/${render}/chunks?from=0&limit=100`), (l) => l.next == null);
    let t = 0;
    timeline = all.chunks.map((c) => ({ text: c.text, start: (t += c.duration_ms) - c.duration_ms, end: t }));
    const target = timeline.findIndex((c) => c.text === SENTENCES[5]);
    check(target > 0 && timeline.at(-1).end > 20000, `the render speaks each sentence, over 20 s: ${JSON.stringify(timeline)}`);
    // A click in the middle of the sixth sentence of the text.
    const point = await page.evaluate((want) => {
      const p = [...document.querySelectorAll('[data-testid=reader-text] [data-block]')].find((el) => el.textContent.includes(want));
      const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = n.textContent.indexOf(want);
        if (i < 0) continue;
        const r = document.createRange();
        r.setStart(n, i + 10);
        r.setEnd(n, i + 11);
        const b = r.getBoundingClientRect();
        return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
      }
      return null;
    }, SENTENCES[5].slice(0, 30));
    check(point, 'the sentence is on the page');
    await page.mouse.click(point.x, point.y);
    await page.waitForFunction((w) => document.querySelector('[data-testid=reader-text] mark[aria-current]')?.textContent === w, SENTENCES[5], { timeout: 20000 });
    check(Number(await attr('data-playing')) === target, `the player plays sentence ${target}: ${await attr('data-playing')}`);
    await page.screenshot({ path: join(artifacts, 'player-article.png') });
    const found = await playerViolations(page);
    check(!found.length, `axe-core in the player at 1440 px: ${found.join('; ')}`);
  });

  await test('player: Space pauses; ←/→ move 15 s, Shift+←/→ a sentence, as the buttons do; keys typed into a field are the field\'s', async () => {
    await pauseBySpace();
    await player.getByRole('slider', { name: 'Seek' }).fill('2');
    await at(2000);
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('ArrowRight');
    await at(17000);
    await page.keyboard.press('ArrowLeft');
    await at(2000);
    await page.keyboard.press('ArrowLeft');
    await at(0);
    await player.getByRole('button', { name: 'Forward 15 seconds' }).click();
    await at(15000);
    await player.getByRole('button', { name: 'Back 15 seconds' }).click();
    await at(0);
    // Sentence by sentence: the starts of the render's chunks.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('Shift+ArrowRight');
    await at(timeline[1].start);
    await page.keyboard.press('Shift+ArrowRight');
    await at(timeline[2].start);
    await page.keyboard.press('Shift+ArrowLeft');
    await at(timeline[1].start);
    await player.getByRole('button', { name: 'Next sentence' }).click();
    await at(timeline[2].start);
    await player.getByRole('button', { name: 'Previous sentence' }).click();
    await at(timeline[1].start);
    // In a field the arrows and Space type.
    const search = page.getByTestId('narrator').getByRole('searchbox');
    await search.fill('ab');
    await search.press('ArrowLeft');
    await search.press('Space');
    check((await position()) === timeline[1].start && (await attr('data-state')) === 'paused', 'keys in a field leave the player');
    check((await search.inputValue()) === 'a b', `the field got the keys: ${await search.inputValue()}`);
    // The shortcuts are listed.
    await player.getByText('Shortcuts').click();
    const listed = await player.locator('dl').innerText();
    check(listed.includes('Space') && listed.includes('Shift'), `the shortcuts are listed: ${listed}`);
    await player.getByText('Shortcuts').click();
  });

  await test('player: the page follows the voice until the user scrolls; "Back to the voice" returns to it; the player stays on another page', async () => {
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('[data-testid=player]')?.dataset.state === 'playing', null, { timeout: 20000 });
    await page.mouse.move(400, 300);
    await page.mouse.wheel(0, -400);
    const back = page.getByTestId('back-to-voice');
    await back.waitFor({ timeout: 10000 });
    await back.click();
    await back.waitFor({ state: 'detached', timeout: 10000 });
    await page.goto(`${base}/#/audiobook`);
    await page.getByRole('heading', { name: 'Audiobook' }).first().waitFor();
    check((await attr('data-render')) === render, 'the same render plays on another page');
    await page.goBack();
    await page.getByTestId('reader-title').waitFor();
  });

  await test('player: paused at 0:09 and reloaded, the article resumes there', async () => {
    await pauseBySpace();
    await player.getByRole('slider', { name: 'Seek' }).fill('9');
    await at(9000);
    await page.reload();
    await page.getByTestId('reader-title').waitFor();
    check(!(await player.count()), 'no player after a reload until asked');
    const resume = page.getByTestId('resume');
    await resume.waitFor();
    check((await resume.innerText()) === 'Resume at 0:09', `the resume button: ${await resume.innerText()}`);
    await resume.click();
    await page.waitForFunction(() => {
      const p = document.querySelector('[data-testid=player]');
      return p?.dataset.state === 'playing' && Number(p.dataset.positionMs) >= 9000;
    }, null, { timeout: 30000 });
    check((await attr('data-render')) === render, 'the kept render resumes');
    const said = timeline[timeline.findIndex((c) => c.end > 9000)].text;
    await page.waitForFunction(() => !!document.querySelector('[data-testid=reader-text] mark[aria-current]'), null, { timeout: 10000 });
    const now = await highlighted();
    check(timeline.findIndex((c) => c.text === now) >= timeline.findIndex((c) => c.text === said), `it highlights from the sentence at 0:09 on (${said}): ${now}`);
    await player.getByRole('button', { name: 'Close the player' }).click();
  });

  await test('player: one book chapter is rendered on its own, plays in the app by sentence and resumes after a reload', async () => {
    const book = await importBook(base, 'keeper.txt', BOOK);
    const spring = (book.chapters ?? []).findIndex((c) => c.title.includes('Spring'));
    check(book.status === 'ready' && spring > 0, `the book: ${book.status} ${JSON.stringify(book.chapters?.map((c) => c.title))}`);
    await api(`/api/audiobook/books/${book.id}/narrator`, json('PUT', { voice_id: voice.id }));
    await page.goto(`${base}/#/audiobook/${book.id}`);
    const panel = page.getByTestId('ab-render');
    await panel.getByTestId('ab-render-chapter').selectOption(String(spring));
    await panel.getByRole('button', { name: 'Render this chapter' }).click();
    const item = panel.locator(`[data-chapter-item="${spring}"]`);
    await item.waitFor({ timeout: SLOW });
    check((await panel.locator('[data-chapter-item]').count()) === 1 && !(await page.getByTestId('ab-m4b-link').count()), 'only that chapter was made');
    await item.getByRole('button', { name: /^Play/ }).click();
    await page.waitForFunction(() => {
      const p = document.querySelector('[data-testid=player]');
      return p?.dataset.kind === 'chapter' && p.dataset.state === 'playing';
    }, null, { timeout: 30000 });
    check((await page.getByTestId('player-title').innerText()).includes('CHAPTER II. Spring'), 'the chapter plays');
    // The book's text goes to the chapter playing and marks the sentence spoken.
    await page.getByTestId('ab-chapter-title').filter({ hasText: 'Spring' }).waitFor({ timeout: 10000 });
    const spokenMark = page.locator('[data-testid=ab-prose] mark.now[aria-current]');
    await spokenMark.waitFor({ timeout: 10000 });
    const timings = await api(`/api/audiobook/books/${book.id}/render/chapters/${spring}/timings`);
    const starts = timings.chapters.flatMap((c) => c.sentences).map((s) => s.start_ms);
    check(starts.length >= 4, `the chapter's sentences: ${JSON.stringify(timings)}`);
    const texts = timings.chapters.flatMap((c) => c.sentences).map((s) => s.text.replace(/\s+/g, ' ').trim());
    await pauseBySpace();
    await player.getByRole('slider', { name: 'Seek' }).fill('0');
    await at(0);
    await page.evaluate(() => document.activeElement?.blur()); // the slider takes arrows as its own
    // From 0 (before the first sentence when the file opens with silence) on one sentence, then another.
    const first = starts.filter((ms) => ms <= 0).length;
    await page.keyboard.press('Shift+ArrowRight');
    await at(starts[first]);
    await page.keyboard.press('Shift+ArrowRight');
    await at(starts[first + 1]);
    const marked = (await spokenMark.innerText()).replace(/\s+/g, ' ').trim();
    check(marked === texts[first + 1], `the text marks the sentence the player is at: ${JSON.stringify(marked)}, want ${JSON.stringify(texts[first + 1])}`);
    await page.reload();
    await page.getByTestId('ab-render').waitFor();
    const resume = page.getByTestId('ab-render').locator(`[data-chapter-item="${spring}"]`).getByTestId('ab-chapter-resume');
    await resume.waitFor({ timeout: 20000 });
    // The book's own place: the chapter left last, offered at the top.
    const continued = page.getByTestId('ab-book-resume');
    check((await continued.innerText()).includes('Spring'), `Continue listening names the chapter: ${await continued.innerText()}`);
    await continued.click();
    await page.waitForFunction((from) => {
      const p = document.querySelector('[data-testid=player]');
      return p?.dataset.kind === 'chapter' && p.dataset.state === 'playing' && Number(p.dataset.positionMs) >= from;
    }, starts[first + 1], { timeout: 30000 });
    await page.screenshot({ path: join(artifacts, 'player-chapter.png') });
  });

  await test('player: at 375 px the docked player fits the width', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${base}/#/magazine/${issue.id}/articles/${art.id}`);
    await page.getByTestId('listen').click();
    await player.and(page.locator('[data-first-audio-ms]')).waitFor({ timeout: 60000 });
    const box = await player.boundingBox();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    check(box && box.width <= 375 && wide <= 375, `the player fits: ${JSON.stringify(box)}, page ${wide} px wide`);
    await page.screenshot({ path: join(artifacts, 'player-375.png') });
    const found = await playerViolations(page);
    check(!found.length, `axe-core in the player at 375 px: ${found.join('; ')}`);
    await player.getByRole('button', { name: 'Close the player' }).click();
  });

  await context.close();
}
