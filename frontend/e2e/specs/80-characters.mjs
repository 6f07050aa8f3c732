// e2e: characters. Alice's Adventures in Wonderland (the team's PDNC copy)
// is read from a text file and its characters extracted by rules; the
// White Rabbit's base form gets an avatar from an image engine card (a
// stand-in on 127.0.0.1 speaking the OpenAI images API with real PNGs, and
// answering 405 to edits as a gateway without them does); its clothing is
// edited, and the fingerprint the browser computes changes, matches the
// server's, and the form shows stale; a new avatar clears it; the review
// passes the portrait and the vision stand-in's description rebuilds the
// turnaround prompt; a pair (its concept image recovered from the 405)
// survives a reload.
import { deflateSync } from 'node:zlib';
import { join } from 'node:path';
import { artifacts, check, createHTTPServer, freePort, getJSON, startServer, cleanups, SLOW, test } from '../harness.mjs';

const alice = new URL('../../../../shared/data/books/AlicesAdventuresInWonderland/novel_text.txt', import.meta.url).pathname;

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** A real 96×96 RGB PNG whose colours depend on n. */
function png(n) {
  const w = 96;
  const rows = [];
  for (let y = 0; y < w; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) row.set([(x * 2) & 255, (y * 2) & 255, (40 * n) & 255], 1 + x * 3);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(w, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** The images and vision stand-in: generations answer PNGs, edits 405, chat a description. */
async function standIn() {
  const calls = [];
  let n = 0;
  const srv = createHTTPServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      calls.push(req.url);
      res.setHeader('Content-Type', 'application/json');
      if (req.url === '/v1/images/generations') {
        n++;
        res.end(JSON.stringify({ created: 1, data: [{ b64_json: png(n).toString('base64') }] }));
      } else if (req.url === '/v1/images/edits') {
        res.statusCode = 405;
        res.end(JSON.stringify({ error: { message: 'Method Not Allowed' } }));
      } else if (req.url === '/v1/chat/completions') {
        const content = JSON.stringify({ hair: 'wild orange', facial_hair: 'none', eyes: 'green' });
        res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'v', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] }));
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
  });
  const port = await freePort();
  await new Promise((r) => srv.listen(port, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => srv.close(r)));
  return { url: `http://127.0.0.1:${port}/v1`, calls };
}

const json = (method, body) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

export default async function ({ browser }) {
  // A server of its own: the engine settings here are not the other specs'.
  const { base } = await startServer();
  const api = (path, init) => getJSON(`${base}${path}`, init);
  const engine = await standIn();
  await api('/api/engines/pictures', json('PUT', { kind: 'image', base_url: engine.url }));
  await api('/api/settings', json('PUT', { vision_ocr_url: engine.url }));

  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}/#/characters`);
  let set, rabbit;

  await test('characters: extract Alice from a text file', async () => {
    await page.getByTestId('extract-file').setInputFiles(alice);
    await page.getByTestId('extract').click();
    await page.getByTestId('character-card').first().waitFor({ timeout: SLOW });
    const sets = (await api('/api/characters')).sets;
    check(sets.length === 1 && sets[0].status === 'ready', `sets ${JSON.stringify(sets)}`);
    set = sets[0].id;
    const chars = (await api(`/api/characters/${set}`)).characters;
    rabbit = chars.find((c) => c.name.includes('Rabbit'));
    check(chars.length >= 10 && chars[0].name === 'Alice' && rabbit, `characters ${chars.map((c) => c.name)}`);
    check((await page.getByTestId('character-card').count()) === chars.length, 'a card per character');
  });

  const form = async () => (await api(`/api/characters/${set}/${rabbit.id}`)).forms[0];
  const printShown = () => page.getByTestId('fingerprint').getAttribute('title');
  // The fingerprint is computed in the browser (SubtleCrypto, asynchronous):
  // wait until the shown one is want.
  const waitPrint = async (want) => {
    await page.waitForFunction((w) => {
      const p = document.querySelector('[data-testid=fingerprint]')?.getAttribute('title');
      return p === w;
    }, want, { timeout: 60000 }).catch(async (e) => { throw new Error(`fingerprint shown ${await printShown()}, want ${want}\n${e}`); });
    return printShown();
  };
  const runJob = async (button) => {
    await page.getByTestId(button).click();
    await page.getByTestId('job-note').getByText(/done|failed/).waitFor({ timeout: SLOW });
    const note = await page.getByTestId('job-note').innerText();
    check(note.endsWith('done'), `job: ${note}`);
  };

  await test('characters: the browser computes the server\'s fingerprint', async () => {
    await page.locator(`[data-character="${rabbit.id}"]`).click();
    const f = await form();
    check((await waitPrint(f.fingerprint)) === f.fingerprint, `browser ${await printShown()}, server ${f.fingerprint}`);
    check((await page.getByTestId('unsaved').count()) === 0, 'no unsaved badge before an edit');
    check((await page.getByTestId('live-prompt').innerText()).startsWith('head-and-shoulders portrait, '), 'live prompt opens with its framing');
  });

  await test('characters: generate an avatar through the image card', async () => {
    await runJob('generate-avatar');
    const img = page.getByTestId('image-avatar').locator('img');
    await img.waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="image-avatar"] img')?.naturalWidth === 96);
    check(engine.calls.includes('/v1/images/generations'), `engine calls ${engine.calls}`);
    check((await page.getByTestId('stale-badge').count()) === 0, 'a fresh avatar is not stale');
  });

  await test('characters: an edit changes the fingerprint and the form goes stale', async () => {
    const before = (await form()).fingerprint;
    await page.getByTestId('clothing').fill('waistcoat with a watch, white kid gloves, a large fan');
    await page.getByTestId('visual_palette').fill('red and white');
    // The server's preview of the same inputs: the browser comes to show the
    // same fingerprint once it has hashed both edits (it hashes each in turn,
    // so the first one it shows may be of the clothing alone).
    const preview = await api('/api/characters/prompts', json('POST', {
      name: rabbit.name, age: rabbit.age, form: 'base', physical: (await form()).physical,
      clothing: 'waistcoat with a watch, white kid gloves, a large fan', visual_palette: 'red and white',
    }));
    check(preview.fingerprint !== before, 'the fingerprint did not change');
    const live = await waitPrint(preview.fingerprint); // fails unless the browser agrees
    await page.getByTestId('unsaved').waitFor();
    await page.getByTestId('save-form').click();
    await page.getByTestId('stale-badge').waitFor();
    const f = await form();
    check(f.stale && f.fingerprint === live, `saved form ${JSON.stringify({ stale: f.stale, fp: f.fingerprint })}`);
    check((await page.getByTestId('unsaved').count()) === 0, 'saved: no unsaved badge');
  });

  await test('characters: a new avatar clears stale, and the review passes it', async () => {
    await runJob('generate-avatar');
    await page.getByTestId('stale-badge').waitFor({ state: 'detached' });
    const before = (await form()).prompts.turnaround;
    await runJob('review-form');
    await page.getByTestId('review').getByText('description: hair: wild orange').waitFor();
    await page.getByTestId('review').getByText(/avatar: 96x96 PNG/).waitFor();
    const f = await form();
    check(f.review.checks.find((c) => c.name === 'avatar').ok, 'avatar check');
    check(f.prompts.turnaround !== before && f.prompts.turnaround.includes('wild orange hair'), `turnaround ${f.prompts.turnaround}`);
  });

  await test('characters: the base form\'s pair survives a reload', async () => {
    await runJob('generate-pair');
    const f = await form();
    check(f.avatar && f.concept && f.concept.pair === f.avatar.id && !f.pair_broken, `pair ${JSON.stringify([f.avatar?.id, f.concept?.pair])}`);
    check(f.concept.fell_back && f.concept.note.includes('405'), `the concept's 405 is not noted: ${f.concept.note}`);
    await page.reload();
    await page.locator(`[data-character="${rabbit.id}"]`).click();
    await page.getByTestId('image-concept').getByTestId('image-note').getByText('405').waitFor();
    for (const kind of ['avatar', 'concept']) {
      await page.waitForFunction((k) => document.querySelector(`[data-testid="image-${k}"] img`)?.naturalWidth === 96, kind);
    }
    check((await page.getByTestId('pair-broken').count()) === 0 && (await page.getByTestId('stale-badge').count()) === 0, 'the pair is whole and fresh after a reload');
    await page.screenshot({ path: join(artifacts, 'characters.png'), fullPage: true });
    check(errors.length === 0, `page errors: ${errors}`);
  });
  await page.close();
}
