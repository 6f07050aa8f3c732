// e2e: the Voices section (search, filters, pages, previews played for real
// by espeak-ng) and the audio player's chapters, sentences, seek and speed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { check, cleanups, freePort, getJSON, held, test, toneWAV } from '../harness.mjs';

const frontend = new URL('../../', import.meta.url).pathname;

/** Every voice card's language and id, as the page shows them. */
async function shown(page) {
  return page.getByRole('list', { name: 'Voices' }).locator(':scope > li').evaluateAll((lis) =>
    lis.map((li) => ({ id: li.dataset.voiceId, language: li.querySelector('[data-testid=voice-language]').textContent.trim() })),
  );
}

/** Waits until the list shows exactly n voices. */
async function showing(page, n) {
  await page.waitForFunction(
    (n) => document.querySelectorAll('ul[aria-label=Voices] > li').length === n && !document.querySelector('[aria-busy=true][data-testid=voices-count]'),
    n,
    { timeout: 60000 },
  );
}

/** A WAV of seconds of a quiet tone as a data: URL (seekable without a server). */
const toneURL = (seconds) => `data:audio/wav;base64,${toneWAV(seconds).toString('base64')}`;

/**
 * The real AudioPlayer.svelte, compiled by Vite's dev server, alone on a page
 * with the given props: exact timings over a tone (65-voice-create plays a real render).
 */
async function playerPage(props) {
  const { createServer } = await import('vite');
  const cacheDir = mkdtempSync(join(tmpdir(), 'lectern-e2e-vite-'));
  const port = await freePort();
  const entry = '\0player-entry';
  const vite = await createServer({
    root: frontend,
    configFile: join(frontend, 'vite.config.ts'),
    cacheDir,
    logLevel: 'error',
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { host: '127.0.0.1', port, strictPort: true, hmr: false, proxy: {} },
    plugins: [{
      name: 'player-page',
      resolveId: (id) => (id === '/@player-entry' ? entry : null),
      load: (id) => id === entry
        ? `import { mount } from 'svelte';\nimport AudioPlayer from '/src/lib/AudioPlayer.svelte';\nmount(AudioPlayer, { target: document.body, props: ${JSON.stringify(props)} });\n`
        : null,
      configureServer(server) {
        server.middlewares.use((req, res, next) => {
          if (req.url !== '/player.html') return next();
          res.setHeader('Content-Type', 'text/html');
          res.end('<!doctype html><html><head><meta charset="utf-8"></head><body><script type="module" src="/@player-entry"></script></body></html>');
        });
      },
    }],
  });
  await vite.listen();
  cleanups.push(async () => {
    await vite.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });
  return `http://127.0.0.1:${port}/player.html`;
}

/** Runs this file's tests against server (a running lectern) in browser. */
export default async function ({ server, browser }) {
  const total = async (query) => (await getJSON(`${server.base}/api/voices?limit=1&${query}`)).total;

  await test('voices: search narrows, filters combine, Load more appends, the search survives a reload', async () => {
    const all = await total('');
    const english = await total('language=en');
    const american = await total('language=en&q=america');
    check(all >= 100, `espeak-ng's voices are imported (${all})`);
    check(english >= 2 && english < all && american >= 1 && american < english, `the library has English and American voices (${english}, ${american})`);
    check((await total('q=america')) > american, 'text alone finds more than text and language (Spanish, Latin America)');

    const context = await browser.newContext();
    // The page's clock is Playwright's: it runs as usual, and is stopped while
    // a search is typed, so that a slow machine's gaps between keys are not
    // pauses to the page.
    await context.clock.install();
    const page = await context.newPage();
    const searches = [];
    page.on('request', (r) => r.url().includes('/api/voices?') && searches.push(r.url()));
    await page.goto(`${server.base}/#/voices`);
    await showing(page, 20);
    check((await page.getByTestId('voices-count').innerText()).includes(`Showing 20 of ${all} voices`), 'the count names the total');

    const first = await shown(page);
    await page.getByRole('button', { name: 'Load more' }).click();
    await showing(page, 40);
    const after = await shown(page);
    check(JSON.stringify(after.slice(0, 20)) === JSON.stringify(first), 'the first page stays in place');
    check(new Set(after.map((v) => v.id)).size === 40, 'Load more adds 20 new voices');
    check(searches.at(-1).includes('offset=20'), `the second page is asked from offset 20: ${searches.at(-1)}`);

    // The first page of 20, then Load more until every English voice is shown.
    await page.getByLabel('Language').fill('en');
    await showing(page, Math.min(english, 20));
    for (let n = 20; n < english; n += 20) {
      await page.getByRole('button', { name: 'Load more' }).click();
      await showing(page, Math.min(english, n + 20));
    }
    for (const v of await shown(page)) check(v.language.startsWith('en'), `language en shows only English voices: ${v.language}`);
    check(!(await page.getByRole('button', { name: 'Load more' }).isVisible()), 'no Load more once every match is shown');

    // Typing waits for a pause: not a search per key. No time passes on the
    // page's clock between the keys, then it runs again.
    const before = searches.length;
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await page.getByLabel('Search', { exact: true }).pressSequentially('america', { delay: 30 });
    check(searches.length === before, `no search while typing: ${searches.slice(before)}`);
    await page.clock.resume();
    await showing(page, american);
    check(searches.length - before === 1, `typing 7 letters sent ${searches.length - before} searches, want 1: ${searches.slice(before)}`);
    check(searches.at(-1).includes('q=america&language=en'), `the last search has both: ${searches.at(-1)}`);
    for (const v of await shown(page)) check(v.language.startsWith('en-us'), `English and "america" shows American English only: ${v.language}`);
    const card = page.getByRole('listitem', { name: 'Voice English (America)', exact: true });
    for (const [id, want] of [['voice-source', 'Built-in'], ['voice-engine', 'espeak-ng (en-us)'], ['voice-speaker', 'Male']]) {
      const got = (await card.getByTestId(id).innerText()).trim();
      check(got === want, `${id} reads ${want}: ${got}`);
    }
    check((await card.getByRole('list', { name: 'Tags' }).innerText()).includes('offline'), 'tags are shown');
    check(page.url().endsWith('#/voices/?q=america&language=en'), `the search is in the URL: ${page.url()}`);

    // Gender narrows further: espeak-ng's female variants of American English.
    const americanFemale = await total('language=en&q=america&gender=female');
    check(americanFemale >= 1 && americanFemale < american, `some American voices are female (${americanFemale} of ${american})`);
    await page.getByLabel('Gender').selectOption('female');
    await showing(page, americanFemale);
    const speakers = await page.getByRole('list', { name: 'Voices' }).getByTestId('voice-speaker').allInnerTexts();
    check(speakers.length === americanFemale && speakers.every((t) => t.trim().startsWith('Female')), `female shows female voices only: ${speakers}`);

    await page.reload();
    await showing(page, americanFemale);
    check((await page.getByLabel('Search', { exact: true }).inputValue()) === 'america' && (await page.getByLabel('Language').inputValue()) === 'en'
      && (await page.getByLabel('Gender').inputValue()) === 'female', 'a reload keeps the search and filters');

    // A search nothing matches says so, and offers to clear everything.
    await page.getByLabel('Search', { exact: true }).fill('zzqx nothing like this');
    await page.getByTestId('voices-empty').getByText('No voice matches this search.').waitFor();
    check((await page.getByRole('list', { name: 'Voices' }).count()) === 0 && (await page.getByTestId('voices-error').count()) === 0, 'empty is no list and no error');
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await showing(page, 20);
    check(page.url().endsWith('#/voices'), `clearing empties the URL's search: ${page.url()}`);

    // Source and engine narrow too, and combine with the rest.
    await page.getByLabel('Source', { exact: true }).selectOption('clone');
    await page.getByTestId('voices-empty').waitFor();
    await page.getByLabel('Source', { exact: true }).selectOption('builtin');
    await page.getByLabel('Engine', { exact: true }).selectOption('espeak-ng');
    await page.getByLabel('Language').fill('en-gb');
    const british = await total('language=en-gb&source=builtin&engine=espeak-ng');
    check(british >= 1 && british < english, `some English voices are British (${british})`);
    await showing(page, british);
    for (const v of await shown(page)) check(v.language.startsWith('en-gb'), `en-gb shows British voices only: ${v.language}`);
    check(searches.at(-1).includes('language=en-gb&source=builtin&engine=espeak-ng'), `every filter is sent: ${searches.at(-1)}`);
    await page.getByLabel('Engine', { exact: true }).selectOption('');
    await page.getByLabel('Source', { exact: true }).selectOption('');
    await page.getByLabel('Language').fill('');
    await showing(page, 20);
    await context.close();
  });

  await test('voices: a failed search shows the error, not the empty state, and Try again recovers', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    let fail = true;
    await page.route('**/api/voices?*', (route) => fail
      ? route.fulfill({ status: 500, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Internal Server Error', status: 500, detail: 'The voice store is unavailable.' }) })
      : route.continue());
    await page.goto(`${server.base}/#/voices/?language=en`);
    await page.getByTestId('voices-error').getByText('The voice store is unavailable.').waitFor();
    check((await page.getByTestId('voices-empty').count()) === 0, 'a failed load never says no voice matches');
    fail = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await showing(page, Math.min(await total('language=en'), 20));
    check((await page.getByTestId('voices-error').count()) === 0, 'the error goes once the search answers');
    await context.close();
  });

  await test('voices: Preview makes espeak-ng speak, the audio plays to its end at the remembered speed, and seeks', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Hold the first preview's answer until its busy state has been seen.
    const first = held();
    await page.route('**/api/voices/*/preview', async (route) => {
      await first.promise;
      await route.continue();
    });
    await page.goto(`${server.base}/#/voices/?q=america&language=en`);
    const card = page.getByRole('listitem', { name: 'Voice English (America)', exact: true });
    await card.waitFor();
    await card.getByRole('button', { name: 'Preview' }).click();
    await card.getByRole('button', { name: 'Preparing…' }).waitFor();
    check(await card.getByRole('button', { name: 'Preparing…' }).isDisabled(), 'Preview is disabled while the sample is made');
    first.release();
    const player = card.getByRole('region', { name: 'Preview of English (America)' });
    await player.waitFor({ timeout: 60000 });
    await card.getByText('“Hello! This is how I sound reading an article aloud.”').waitFor();
    await player.getByLabel('Speed').selectOption('3');
    const audio = player.getByTestId('player-audio');
    await audio.evaluate((a) => new Promise((resolve, reject) => {
      if (a.ended) return resolve();
      a.addEventListener('ended', () => resolve(), { once: true });
      a.addEventListener('error', () => reject(new Error(`audio error ${a.error?.code}`)), { once: true });
      setTimeout(() => reject(new Error(`not ended: t=${a.currentTime} of ${a.duration}, paused=${a.paused}`)), 60000);
    }));
    const played = await audio.evaluate((a) => ({ rate: a.playbackRate, duration: a.duration, ended: a.ended, src: a.currentSrc }));
    check(played.ended && played.rate === 3, `ended at 3×: ${JSON.stringify(played)}`);
    check(played.duration > 1 && played.duration < 30, `a real spoken sample: ${played.duration} s`);
    check(/\/blobs\/voices\/previews\/.+\.wav/.test(played.src), `the sample comes from the blob store: ${played.src}`);
    await player.getByRole('button', { name: 'Play' }).waitFor();

    // Seek with the bar: the time shows where the audio is.
    await player.getByLabel('Seek').fill('1.5');
    await page.waitForFunction((el) => Math.abs(el.currentTime - 1.5) < 0.05, await audio.elementHandle());
    const time = await player.getByTestId('player-time').innerText();
    check(time.startsWith('0:01 / 0:0'), `the time reads 0:01 of the duration: ${time}`);

    // The speed is remembered: a reload and a new preview play at 3×.
    await page.reload();
    await card.getByRole('button', { name: 'Preview' }).click();
    await player.waitFor();
    check((await player.getByLabel('Speed').inputValue()) === '3', 'the speed select remembers 3×');
    await page.waitForFunction((el) => el.playbackRate === 3 && el.readyState >= 1, await audio.elementHandle());
    check((await page.evaluate(() => localStorage.getItem('lectern.player.speed'))) === '3', 'the speed is kept in localStorage');
    await context.close();
  });

  await test('voices: a preview that fails shows its error on the voice', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route('**/api/voices/*/preview', (route) => route.fulfill({
      status: 502, contentType: 'application/problem+json',
      body: JSON.stringify({ title: 'Bad Gateway', status: 502, detail: 'The engine did not answer. Check its card.' }),
    }));
    await page.goto(`${server.base}/#/voices/?q=america&language=en`);
    const card = page.getByRole('listitem', { name: 'Voice English (America)', exact: true });
    await card.getByRole('button', { name: 'Preview' }).click();
    await card.getByRole('alert').getByText('The engine did not answer. Check its card.', { exact: true }).waitFor();
    check((await card.getByTestId('audio-player').count()) === 0, 'no player for a failed preview');
    check(await card.getByRole('button', { name: 'Preview' }).isEnabled(), 'Preview can be tried again');
    await context.close();
  });

  await test('player: chapters jump, the spoken sentence is highlighted as it plays, a sentence click seeks', async () => {
    const url = await playerPage({
      src: toneURL(6),
      label: 'Test player',
      // Out of order on purpose: the player lists them in time order.
      chapters: [{ title: 'Three', start_ms: 4000 }, { title: 'One', start_ms: 0 }, { title: 'Two', start_ms: 2000 }],
      sentences: [
        { start_ms: 0, end_ms: 1500, text: 'First sentence.' },
        { start_ms: 1500, end_ms: 3000, text: 'Second sentence.' },
        { start_ms: 3000, end_ms: 4500, text: 'Third sentence.' },
        { start_ms: 4500, end_ms: 6000, text: 'Fourth sentence.' },
      ],
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    const player = page.getByRole('region', { name: 'Test player' });
    await player.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30000 });
    const audio = await player.getByTestId('player-audio').elementHandle();
    await page.waitForFunction((a) => a.duration > 5.9, audio);
    check((await player.getByTestId('player-time').innerText()) === '0:00 / 0:06', 'the duration is shown');
    const titles = await player.getByRole('list', { name: 'Chapters' }).locator('li span:first-child').allInnerTexts();
    check(JSON.stringify(titles) === '["One","Two","Three"]', `chapters in time order: ${titles}`);

    const current = (what) => (what === 'chapter' ? player.getByRole('list', { name: 'Chapters' }) : player.getByTestId('player-text'))
      .locator('[aria-current=true]').allInnerTexts();
    await player.getByRole('button', { name: /^Two/ }).click();
    await page.waitForFunction((a) => Math.abs(a.currentTime - 2) < 0.05, audio);
    check((await current('chapter'))[0]?.startsWith('Two'), `chapter Two is current: ${await current('chapter')}`);
    check(JSON.stringify(await current('text')) === '["Second sentence."]', `the sentence at 2 s is highlighted: ${await current('text')}`);
    check((await player.getByTestId('player-time').innerText()) === '0:02 / 0:06', 'the time follows the jump');

    await player.getByRole('button', { name: 'Fourth sentence.' }).click();
    await page.waitForFunction((a) => Math.abs(a.currentTime - 4.5) < 0.05, audio);
    check((await current('chapter'))[0]?.startsWith('Three'), 'a sentence click moves to its chapter');
    check(JSON.stringify(await current('text')) === '["Fourth sentence."]', 'the clicked sentence is highlighted');

    // Play from the start at 2×: the highlight walks through the sentences in order.
    await player.getByRole('button', { name: /^One/ }).click();
    await player.getByLabel('Speed').selectOption('2');
    const walked = page.evaluate(() => new Promise((resolve) => {
      const seen = [];
      const note = () => {
        const t = document.querySelector('[data-testid=player-text] [aria-current=true]')?.textContent;
        if (t && seen.at(-1) !== t) seen.push(t);
      };
      new MutationObserver(note).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-current'] });
      document.querySelector('audio').addEventListener('ended', () => resolve(seen), { once: true });
      setTimeout(() => resolve(seen), 60000);
    }));
    await player.getByRole('button', { name: 'Play' }).click();
    const seen = await walked;
    check(JSON.stringify(seen) === JSON.stringify(['Second sentence.', 'Third sentence.', 'Fourth sentence.']),
      `the highlight follows the speech: ${JSON.stringify(seen)}`);
    check(await audio.evaluate((a) => a.ended && a.playbackRate === 2), 'played to the end at 2×');
    check((await current('chapter'))[0]?.startsWith('Three'), 'the last chapter is current at the end');
    await context.close();
  });
}
