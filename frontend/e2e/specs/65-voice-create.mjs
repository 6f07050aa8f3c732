// e2e: making voices and hearing them. Clone on a fake Chatterbox TTS API
// server (127.0.0.1), design with espeak-ng offline, and Listen: the speech
// renderer reads a two-chapter text and the player follows it.
import { artifacts, check, cleanups, createHTTPServer, freePort, getJSON, held, SLOW, test, toneWAV } from '../harness.mjs';

/** The parts of a multipart/form-data body: name → { filename, type, data }. */
function multipart(body, contentType) {
  const boundary = Buffer.from(`--${/boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType)?.slice(1).find(Boolean)}`);
  const parts = {};
  let at = body.indexOf(boundary);
  while (at >= 0) {
    const start = at + boundary.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const headEnd = body.indexOf('\r\n\r\n', start);
    const next = body.indexOf(boundary, headEnd);
    const head = body.subarray(start + 2, headEnd).toString();
    const name = /name="([^"]*)"/.exec(head)?.[1];
    parts[name] = {
      filename: /filename="([^"]*)"/.exec(head)?.[1],
      type: /content-type:\s*(\S+)/i.exec(head)?.[1],
      data: body.subarray(headEnd + 4, next - 2), // the part ends in CRLF before the boundary
    };
    at = next;
  }
  return parts;
}

/**
 * A Chatterbox TTS API server: POST /v1/voices keeps an upload, POST
 * /v1/audio/speech answers a WAV. An upload's answer waits for cloning.release()
 * ("cloning" lasts until the test has seen the page say so).
 */
async function fakeChatterbox() {
  const seen = { uploads: [], speech: [] };
  const cloning = held();
  const port = await freePort();
  const server = createHTTPServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && req.url === '/v1/voices') {
        const parts = multipart(body, req.headers['content-type'] ?? '');
        const name = parts.voice_name?.data.toString();
        seen.uploads.push({ name, file: parts.voice_file?.data, filename: parts.voice_file?.filename });
        cloning.promise.then(() => res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'Voice uploaded', voice: { name } })));
      } else if (req.method === 'GET' && req.url === '/v1/models') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"object":"list","data":[{"id":"chatterbox"},{"id":"chatterbox-turbo"}]}');
      } else if (req.method === 'POST' && req.url === '/v1/audio/speech') {
        seen.speech.push(JSON.parse(body.toString()));
        res.writeHead(200, { 'Content-Type': 'audio/wav' }).end(toneWAV(1));
      } else {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"detail":"not found"}');
      }
    });
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  cleanups.push(() => server.close());
  return { base: `http://127.0.0.1:${port}/v1`, seen, cloning };
}

/** Opens the Voices section's Clone or Design form (a second press would close it). */
async function open(page, button) {
  const b = page.getByRole('button', { name: button });
  if ((await b.getAttribute('aria-expanded')) !== 'true') await b.click();
}

/** Runs this file's tests against server (a running lectern) in browser. */
export default async function ({ server, browser }) {
  await test('voices: clone on a Chatterbox card (consent, the exact recording sent), and a 3 s recording is refused', async () => {
    const engine = await fakeChatterbox();
    const context = await browser.newContext();
    const page = await context.newPage();

    // The card, made in the page with its voice API; an edit keeps it.
    await page.goto(`${server.base}/#/engines`);
    await page.getByLabel('Name').fill('cbox');
    await page.getByLabel('Kind').selectOption('tts');
    await page.getByLabel('Voice API').selectOption('chatterbox');
    await page.getByLabel('Base URL').fill(engine.base);
    await page.getByRole('button', { name: 'Add card' }).click();
    const card = page.getByRole('listitem', { name: 'Engine cbox' });
    await card.getByTestId('voice-api-cbox').filter({ hasText: 'Chatterbox (clone)' }).waitFor();
    await card.getByRole('button', { name: 'Edit' }).click();
    check((await card.getByLabel('Voice API').inputValue()) === 'chatterbox', 'the edit form shows the voice API');
    await card.getByLabel('Model name').fill('chatterbox-tts');
    await card.getByRole('button', { name: 'Save card' }).click();
    await page.getByTestId('result-cbox').filter({ hasText: 'Card saved.' }).waitFor();
    const cbox = async () => (await getJSON(`${server.base}/api/engines`)).cards.find((c) => c.name === 'cbox');
    let saved = await cbox();
    check(saved.voice_api === 'chatterbox' && saved.model === 'chatterbox-tts', `an edit keeps the voice API: ${JSON.stringify(saved)}`);
    // So does a model picked from the engine's list.
    const picker = card.getByRole('combobox', { name: 'Model' });
    await picker.click();
    await picker.fill('turbo');
    await card.getByRole('option').first().getByRole('button', { name: 'chatterbox-turbo' }).click();
    await page.getByTestId('result-cbox').filter({ hasText: 'Model set: chatterbox-turbo' }).waitFor();
    saved = await cbox();
    check(saved.voice_api === 'chatterbox' && saved.model === 'chatterbox-turbo', `a picked model keeps the voice API: ${JSON.stringify(saved)}`);

    await page.goto(`${server.base}/#/voices`);
    const before = (await getJSON(`${server.base}/api/voices?limit=1`)).total;
    await open(page, 'Clone a voice');
    const form = page.getByRole('form', { name: 'Clone a voice' });
    check((await form.getByLabel('Clone on engine').inputValue()) === 'cbox', 'the Chatterbox card is chosen');
    check((await form.getByTestId('consent-statement').innerText()).startsWith('I confirm that the person speaking in this recording has agreed'),
      'the consent statement is shown');
    const clone = form.getByRole('button', { name: 'Clone' });
    const recording = toneWAV(6);
    await form.getByLabel('Voice name').fill('Ann Reader');
    await form.getByLabel('Recording (5–60 s)').setInputFiles({ name: 'ann.wav', mimeType: 'audio/wav', buffer: recording });
    check(await clone.isDisabled(), 'Clone stays disabled without consent');
    await form.getByTestId('clone-status').filter({ hasText: 'Confirm the speaker agreed.' }).waitFor();
    await form.getByRole('checkbox').check();
    await form.getByLabel('Consent given by').fill('Ann herself');
    check(await clone.isEnabled(), 'Clone is enabled with a file, a name and consent');
    await clone.click();
    await form.getByTestId('clone-status').filter({ hasText: 'Cloning on cbox…' }).waitFor();
    check(await clone.isDisabled(), 'Clone is disabled while it runs');
    engine.cloning.release();
    const created = form.getByTestId('clone-created');
    await created.waitFor({ timeout: 60000 });
    check((await created.innerText()).includes('Ann Reader') && (await created.innerText()).includes('source Clone'), `the new voice is shown: ${await created.innerText()}`);
    check(engine.seen.uploads.length === 1, `one upload reached the engine (${engine.seen.uploads.length})`);
    const up = engine.seen.uploads[0];
    check(up.file?.equals(recording), `the engine received the exact recording (${up.file?.length} of ${recording.length} bytes)`);
    check(/^[a-z0-9]/.test(up.name ?? ''), `the upload is named: ${up.name}`);

    // Its preview speaks through the card: the voice name the engine took.
    await created.getByRole('button', { name: 'Preview' }).click();
    await created.getByRole('region', { name: 'Preview of Ann Reader' }).waitFor({ timeout: 60000 });
    check(engine.seen.speech.at(-1)?.voice === up.name, `the preview speaks in the uploaded voice: ${JSON.stringify(engine.seen.speech.at(-1))}`);

    // The list shows it: searched for, as a clone on the card; the library has one more voice.
    const listed = page.getByRole('listitem', { name: 'Voice Ann Reader' });
    await listed.waitFor();
    check(page.url().endsWith('#/voices/?q=Ann+Reader'), `the list searches for the new voice: ${page.url()}`);
    check((await getJSON(`${server.base}/api/voices?limit=1`)).total === before + 1, 'the library has one more voice');
    check((await listed.getByTestId('voice-source').innerText()).trim() === 'Clone', 'the list says Clone');
    check((await listed.getByTestId('voice-engine').innerText()).startsWith('cbox'), 'on the Chatterbox card');

    // Too short: the server's duration problem is shown; nothing reaches the engine.
    await open(page, 'Clone a voice');
    await form.getByLabel('Voice name').fill('Too Short');
    await form.getByLabel('Recording (5–60 s)').setInputFiles({ name: 'short.wav', mimeType: 'audio/wav', buffer: toneWAV(3) });
    await form.getByRole('checkbox').check();
    await clone.click();
    const problem = await form.getByTestId('clone-error').innerText({ timeout: 60000 });
    check(problem.includes('3.0 s') && problem.includes('5-60 s'), `the duration problem is shown: ${problem}`);
    await page.screenshot({ path: `${artifacts}/65-clone.png`, fullPage: true });
    check(engine.seen.uploads.length === 1, 'a refused recording never reaches the engine');
    await context.close();
  });

  await test('voices: design with espeak-ng offline, hear a candidate, save it as Morag', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/#/voices`);
    await open(page, 'Design a voice');
    const form = page.getByRole('form', { name: 'Design a voice' });
    check((await form.getByLabel('Design on engine').inputValue()) === 'espeak-ng', 'espeak-ng is the first engine');
    const description = form.getByLabel('Description');
    check((await description.getAttribute('placeholder')) === 'warm older woman, Scottish, slow', 'the placeholder suggests a description');
    await description.fill('warm older woman, Scottish, slow');
    await form.getByRole('button', { name: 'Design voices' }).click();
    const candidates = page.getByRole('list', { name: 'Candidates' }).locator(':scope > li');
    await candidates.first().waitFor({ timeout: SLOW });
    check((await candidates.count()) === 3, `3 candidates (${await candidates.count()})`);
    const summary = await candidates.first().getByTestId('candidate-summary').innerText();
    check(summary.includes('Scottish') && summary.includes('female'), `the summary reads the description: ${summary}`);

    // The first sample plays for real (at 3×, to its end).
    const played = await candidates.first().getByTestId('candidate-audio').evaluate((a) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ended: t=${a.currentTime} of ${a.duration}, paused=${a.paused}`)), 60000);
      a.addEventListener('ended', () => (clearTimeout(timer), resolve({ duration: a.duration, t: a.currentTime })), { once: true });
      a.addEventListener('error', () => (clearTimeout(timer), reject(new Error(`audio error ${a.error?.code}`))), { once: true });
      a.playbackRate = 3;
      a.play().catch(reject);
    }));
    check(played.duration > 2 && played.t > 2, `the sample played to its end: ${JSON.stringify(played)}`);

    await candidates.first().getByRole('button', { name: 'Choose' }).click();
    const save = page.getByRole('form', { name: 'Save the designed voice' });
    check((await save.getByLabel('Voice language').inputValue()) === 'en-gb' && (await save.getByLabel('Accent').inputValue()) === 'Scottish'
      && (await save.getByLabel('Voice gender').inputValue()) === 'female' && (await save.getByLabel('Voice age').inputValue()) === 'old',
    'the candidate pre-fills language, accent, gender and age');
    check(await save.getByRole('button', { name: 'Save voice' }).isDisabled(), 'a name is required');
    await save.getByLabel('Voice name').fill('Morag');
    await save.getByRole('button', { name: 'Save voice' }).click();
    await page.getByTestId('design-saved').filter({ hasText: 'Morag' }).waitFor({ timeout: 60000 });
    await page.screenshot({ path: `${artifacts}/65-design.png`, fullPage: true });
    const morag = page.getByRole('listitem', { name: 'Voice Morag' });
    await morag.waitFor();
    check((await morag.getByTestId('voice-source').innerText()).trim() === 'Design', 'Morag is a designed voice');
    check((await morag.getByTestId('voice-engine').innerText()).includes('en-gb-scotland'), `Morag speaks with espeak-ng's Scottish voice: ${await morag.getByTestId('voice-engine').innerText()}`);
    await context.close();
  });

  await test('voices: Listen renders two chapters with espeak-ng; the player jumps to chapter Two and highlights its sentence', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The render's status answers in the order they came; each body is read
    // before it is looked at (a handler that awaited it could push it late).
    const statuses = [];
    page.on('response', (r) => {
      if (/\/api\/speech\/renders(\/[^/]+)?$/.test(new URL(r.url()).pathname)) statuses.push(r.json().catch(() => null));
    });
    await page.goto(`${server.base}/#/voices/?q=america&language=en`);
    const card = page.getByRole('listitem', { name: 'Voice English (America)', exact: true });
    await card.getByRole('button', { name: 'Listen' }).click();
    await card.getByLabel('Text to read').fill('# One\n\nFirst sentence. Second sentence.\n\n# Two\n\nThird sentence.');
    await card.getByText('2 chapters').waitFor();
    await card.getByRole('button', { name: 'Read it' }).click();
    const player = card.getByRole('region', { name: 'English (America) reading' });
    await player.waitFor({ timeout: SLOW });
    const done = (await Promise.all(statuses)).filter(Boolean).at(-1);
    check(done?.status === 'succeeded' && done.format === 'm4b', `the render succeeded as m4b: ${JSON.stringify(done)?.slice(0, 200)}`);
    const two = done.timings.chapters[1];
    check(two.title === 'Two' && two.start_ms > 0, `chapter Two starts later: ${JSON.stringify(two)}`);

    const audio = await player.getByTestId('player-audio').elementHandle();
    await page.waitForFunction((a) => a.readyState >= 1 && a.duration > 0, audio, { timeout: 60000 });
    const titles = await player.getByRole('list', { name: 'Chapters' }).locator('li span:first-child').allInnerTexts();
    check(JSON.stringify(titles) === '["One","Two"]', `the player lists the chapters: ${titles}`);
    await page.screenshot({ path: `${artifacts}/65-listen.png`, fullPage: true });
    const text = await player.getByTestId('player-text').innerText();
    check(['First sentence.', 'Second sentence.', 'Third sentence.'].every((s) => text.includes(s)), `the player shows the sentences: ${text}`);

    await player.getByRole('button', { name: /^Two/ }).click();
    await page.waitForFunction(([a, ms]) => Math.abs(a.currentTime * 1000 - ms) < 60, [audio, two.start_ms], { timeout: 30000 });
    const current = await player.locator('[aria-current=true]').allInnerTexts();
    check(current.some((t) => t.startsWith('Two')), `chapter Two is current: ${current}`);
    const sentence = await player.getByTestId('player-text').locator('[aria-current=true]').allInnerTexts();
    check(JSON.stringify(sentence) === '["Third sentence."]', `the highlighted sentence is in chapter Two: ${sentence}`);
    await context.close();
  });
}
