// e2e: the ear. A stand-in TTS engine (OpenAI's /v1/audio/speech on
// 127.0.0.1, speaking with espeak-ng) drops one sentence of a book: it
// answers silence for it, every time. The book is rendered through a TTS
// card on that engine, the ear left at its default (on, in Settings); the
// ear (Whisper tiny.en) hears the silence, has the
// sentence spoken again (the engine is asked twice), then marks it: the
// audiobook view shows the sentence, what was heard, and the render's
// median and worst word error rate. The sentence carries markup, shown as
// text.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { artifacts, check, cleanups, createHTTPServer, freePort, getJSON, SLOW, test, waitUntil } from '../harness.mjs';

const victim = 'Then the <b>old</b> sailor counted seven silver coins into her open hand.';
const book = `THE HARBOUR

CHAPTER I. Morning

The morning was cold and grey over the harbour.

Margaret walked down to the water with her brother.

${victim}

Nobody spoke for a long time.
`;

/** Half a second of silence: 22050 Hz, 16-bit mono PCM. */
function silenceWAV() {
  const n = 22050;
  const b = Buffer.alloc(44 + n);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + n, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(22050, 24);
  b.writeUInt32LE(44100, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(n, 40);
  return b;
}

/** A TTS engine that speaks with espeak-ng and drops the victim sentence. */
async function droppingEngine() {
  const asked = [];
  const port = await freePort();
  const server = createHTTPServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/v1/models') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"object":"list","data":[{"id":"standin"}]}');
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/audio/speech') {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const { input } = JSON.parse(Buffer.concat(chunks).toString());
      asked.push(input);
      const wav = input === victim ? silenceWAV() : execFileSync('espeak-ng', ['-v', 'en-us', '--stdout', input]);
      res.writeHead(200, { 'Content-Type': 'audio/wav' }).end(wav);
    });
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  cleanups.push(() => server.close());
  return { base: `http://127.0.0.1:${port}/v1`, asked };
}

export default async function ({ server, browser }) {
  const api = (path, init) => getJSON(`${server.base}${path}`, init);
  const json = (method, body) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  await test('ear: a stand-in engine that drops a sentence is caught: spoken again, then marked with what was heard, in the audiobook view', async () => {
    const engine = await droppingEngine();
    await api('/api/engines/standin', json('PUT', { kind: 'tts', base_url: engine.base, model: 'standin' }));
    const voice = await api('/api/voices', json('POST', { name: 'Stand-in narrator', language: 'en', engine: 'standin', engine_voice: 'alloy' }));
    const form = new FormData();
    form.append('file', new Blob([book], { type: 'text/plain' }), 'harbour.txt');
    const res = await fetch(`${server.base}/api/audiobook/books`, { method: 'POST', body: form });
    check(res.status === 202, `upload answered ${res.status}`);
    const b = await res.json();
    await waitUntil('the book is imported', () => api(`/api/audiobook/books/${b.id}`), (x) => x.status === 'ready' || x.status === 'failed');
    await api(`/api/audiobook/books/${b.id}/narrator`, json('PUT', { voice_id: voice.id }));

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/#/audiobook/${b.id}`);
    // The ear is on by default (Settings): the box shows it, and the render,
    // asking neither way, is heard because Settings say so when it runs.
    const box = page.getByTestId('ab-render-check');
    await waitUntil('the box shows the Settings default', () => box.isChecked());
    const asked = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/audiobook/books/${b.id}/render`));
    await page.getByTestId('ab-render-start').click();
    check(!('check' in ((await asked).postDataJSON() ?? {})), 'an unchanged box does not ask either way');
    const marked = page.getByTestId('ear-marked');
    await marked.waitFor({ timeout: 3 * SLOW });
    const item = marked.locator('li');
    check(await item.count() === 1, `one sentence marked: ${await marked.innerText()}`);
    const shown = await item.innerText();
    check(shown.includes(victim), `the marked sentence is shown as text, markup and all: ${shown}`);
    check(await marked.locator('b').count() === 0, 'the sentence\'s markup is not run');
    const heard = await item.getByTestId('ear-heard').innerText();
    const view = await api(`/api/audiobook/books/${b.id}/render`);
    const m = view.ear.marked[0];
    check(m.text === victim && heard === (m.heard || '(nothing)') && m.wer > 0.5, `the heard text shown is the record's: ${heard} / ${JSON.stringify(m)}`);
    check(engine.asked.filter((t) => t === victim).length === 2, `the dropped sentence was spoken again once: asked ${engine.asked.filter((t) => t === victim).length} times`);
    const summary = await page.getByTestId('ear-summary').innerText();
    check(/median word error \d+%, worst \d+%/.test(summary) && view.ear.worst_wer >= m.wer && view.ear.median_wer < 0.5, `the summary: ${summary} ${JSON.stringify(view.ear)}`);
    console.log(`     heard for the dropped sentence: "${m.heard}" (WER ${m.wer.toFixed(2)}); ${summary}`);
    await page.getByTestId('ab-render').screenshot({ path: join(artifacts, 'ear-marked.png') });
    // The chapter MP3 finds the chunk and its verdict cached: not spoken a third time.
    const done = await waitUntil('the render ends', () => api(`/api/audiobook/books/${b.id}/render`), (v) => v.status === 'succeeded' || v.status === 'failed');
    check(done.status === 'succeeded' && engine.asked.filter((t) => t === victim).length === 2, `the render succeeded (${done.status}) without asking for the sentence again`);
    await context.close();
  });
}
