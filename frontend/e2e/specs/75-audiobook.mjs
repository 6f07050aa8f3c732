// e2e: the Audiobook section on a server of its own. PDNC's Alice (the
// team's sample data) is uploaded and read with its dialogue coloured by
// speaker; a stand-in LLM (chat completions on 127.0.0.1 that checks the
// speakers schema) casts it in span mode with the verify pass, answering one
// line differently the second time so a disputed line appears; the disputed
// filter finds it, its speaker is set by hand and kept after a reload. Then a
// small two-chapter TXT is cast in classic mode (ab-span-mode = 0 in
// localStorage: the stand-in sees the classic request), gets espeak-ng voices
// for a character and the narrator, and is rendered: the M4B's chapters
// (ffprobe -show_chapters) and a chapter MP3 are checked.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
import { join, resolve } from 'node:path';
import { artifacts, check, cleanups, createHTTPServer, freePort, getJSON, importBook, SLOW, startServer, test, waitBookReady, waitUntil } from '../harness.mjs';

const repo = resolve(new URL('../../../', import.meta.url).pathname);
const sampleData = process.env.LECTERN_SAMPLE_DATA || resolve(repo, '../shared/data');
const aliceFile = join(sampleData, 'books/AlicesAdventuresInWonderland/novel_text.txt');

const smallBook = `THE LETTER

CHAPTER I. The Post

Mary waited at the window all morning for the postman to come up the hill.

"Is there anything for me?" asked Mary.

The Captain shook his head. "Nothing today," said the Captain. "Perhaps tomorrow."

CHAPTER II. The Reply

The letter came at last, sealed with green wax and smelling faintly of the sea.

"It is from my brother," said Mary.

"Then read it aloud," said the Captain, and he sat down by the fire.
`;

/** A zip of files, every one stored (no compression), in the given order: an EPUB with its mimetype first. */
function storedZip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of files) {
    const n = Buffer.from(name);
    const data = Buffer.from(text);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt32LE(crc32(data), 14);
    head.writeUInt32LE(data.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    head.copy(central, 16, 14, 26); // crc and sizes
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(head, n, data);
    centrals.push(central, n);
    offset += 30 + n.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** A two-chapter EPUB 3 with a nav document and curly quotation marks. */
function smallEPUB() {
  const page = (title, body) => `<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
  return storedZip([
    ['mimetype', 'application/epub+zip'],
    ['META-INF/container.xml', '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'],
    ['OEBPS/content.opf', `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">lighthouse</dc:identifier><dc:title>The Lighthouse Keeper</dc:title><dc:creator>Ann Writer</dc:creator></metadata>
<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/></manifest>
<spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>`],
    ['OEBPS/nav.xhtml', '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a href="c1.xhtml">The Lamp</a></li><li><a href="c2.xhtml">The Storm</a></li></ol></nav></body></html>'],
    ['OEBPS/c1.xhtml', page('The Lamp', '<p>Tom climbed the stairs at dusk.</p><p>“The lamp is lit,” said Tom.</p>')],
    ['OEBPS/c2.xhtml', page('The Storm', '<p>The wind rose in the night.</p><p>“Hold fast,” said Tom.</p>')],
  ]);
}

const json = (method, body, headers = {}) => ({ method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** The cast names a prompt lists ("Cast:\nAlice [female]\nthe Queen (Queen) [female]\n\nPassage:…"). */
function castNames(user) {
  const list = user.slice(user.indexOf('Cast:\n') + 6, user.indexOf('\nPassage:') >= 0 ? user.indexOf('\nPassage:') : user.indexOf('\nText:'));
  // Span mode lists "Name (alias, alias) [gender, narrator]", classic mode "Name, alias".
  return list.split('\n').map((l) => l.replace(/ \[[^\]]*\]$/, '').replace(/ \(.*\)$/, '').split(', ')[0].trim()).filter(Boolean);
}

/** A classic-mode answer: the text's quotations as lines of the character named just after them, the rest the narrator's. */
function classicAnswer(user, names) {
  const text = user.slice(user.indexOf('\nText:\n') + 7);
  const segments = [];
  let pos = 0;
  for (const m of text.matchAll(/"[^"]*"/g)) {
    if (text.slice(pos, m.index).trim()) segments.push({ speaker: 'narrator', text: text.slice(pos, m.index).trim() });
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 30);
    segments.push({ speaker: names.find((n) => after.includes(n.replace(/^the /i, ''))) ?? 'Unknown', text: m[0] });
    pos = m.index + m[0].length;
  }
  if (text.slice(pos).trim()) segments.push({ speaker: 'narrator', text: text.slice(pos).trim() });
  return { segments };
}

export default async function ({ browser }) {
  const server = await startServer();
  const base = server.base;
  const api = (path, init) => getJSON(`${base}${path}`, init);

  /** Every segment of a book the query selects, page by page. */
  async function allSegments(book, query = '') {
    const out = [];
    for (let offset = 0; ;) {
      const p = await api(`/api/audiobook/books/${book}/segments?limit=500&offset=${offset}${query}`);
      out.push(...(p.items ?? []));
      if (p.next_offset == null) return out;
      offset = p.next_offset;
    }
  }

  // The stand-in LLM. Span mode: the first time a line is asked it answers
  // the speaker the rules gave it at import, or (a line the rules left) one
  // of the first three cast names; asked again (the verify pass) it answers
  // the same, but for the first line asked again, which gets another name.
  // A held stand-in answers nothing until hold.release() (a job seen mid-way).
  const llm = { speakers: 0, classic: 0, disputed: null, answered: new Map(), rules: null, book: null, bad: [], hold: null };
  const castBook = (id) => Object.assign(llm, { book: id, rules: null, answered: new Map() });
  const port = await freePort();
  const standIn = createHTTPServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    res.setHeader('Content-Type', 'application/json');
    const reply = (content) => res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'caster',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(content) } }] }));
    try {
      await llm.hold?.promise;
      const body = JSON.parse(raw);
      const user = body.messages?.find((m) => m.role === 'user')?.content ?? '';
      const schema = body.response_format?.type === 'json_schema' ? body.response_format.json_schema?.name : '';
      const names = castNames(user);
      if (schema === 'cast') return reply({ characters: [], not_characters: [] }); // Refine: the rules' cast stands
      if (schema === 'segments') {
        llm.classic++;
        return reply(classicAnswer(user, names));
      }
      if (schema !== 'speakers' || !names.length) {
        llm.bad.push(schema || 'no schema');
        return res.writeHead(400).end('{"error":{"message":"want the speakers or segments schema"}}');
      }
      llm.speakers++;
      llm.rules ??= new Map((await allSegments(llm.book)).map((s) => [s.id, s.speaker ?? '']));
      const speakers = [...user.matchAll(/\[\[(c\d+-[sk]\d+)\]\]/g)].map(([, span], i) => {
        let speaker = llm.answered.get(span);
        if (speaker === undefined) {
          speaker = llm.rules.get(span) || names[i % Math.min(3, names.length)];
          llm.answered.set(span, speaker);
        } else if (llm.disputed === null || llm.disputed.span === span) {
          const other = names.find((n) => n !== speaker);
          llm.disputed = { span, first: speaker, other };
          speaker = other;
        }
        return { span, speaker };
      });
      reply({ speakers });
    } catch (e) {
      res.writeHead(500).end(JSON.stringify({ error: { message: String(e) } }));
    }
  });
  await new Promise((r) => standIn.listen(port, '127.0.0.1', r));
  cleanups.push(() => standIn.close());

  const espeak = (await api('/api/voices?language=en-us&source=builtin&engine=espeak-ng&limit=5')).items?.[0];
  check(espeak, 'espeak-ng has an en-us voice');

  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  let alice = null; // the book's id
  let chosen = null; // the hand-set line: { span, chapter, speaker }

  /** A character's row in the cast panel. */
  const castRow = (name) => page.locator('[data-testid=ab-cast-panel] li[data-character]').filter({ has: page.locator('strong', { hasText: new RegExp(`^${name}$`) }) });

  /** Each shown line's speaker, label and background colour. */
  const shownLines = () => page.locator('[data-testid=ab-prose] .line').evaluateAll((els) => els.map((el) => ({
    seg: el.dataset.seg, speaker: el.dataset.speaker, bg: getComputedStyle(el).backgroundColor, label: el.previousElementSibling?.classList.contains('who') ? el.previousElementSibling.textContent : null,
  })));

  await test('audiobook: upload Alice (TXT) and read it with its dialogue coloured by speaker, a colour per speaker in every chapter', async () => {
    check(existsSync(aliceFile), `the sample book is at ${aliceFile} (set LECTERN_SAMPLE_DATA)`);
    await page.goto(`${base}/#/audiobook`);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Audiobook' }).and(page.locator('[aria-current=page]')).waitFor();
    await page.getByTestId('ab-file').setInputFiles(aliceFile);
    const started = Date.now();
    await page.getByRole('button', { name: 'Upload' }).click();
    await waitBookReady(page);
    alice = /#\/audiobook\/([a-z0-9]+)/.exec(page.url())?.[1];
    check(alice, `the address names the book: ${page.url()}`);
    castBook(alice);
    const book = await api(`/api/audiobook/books/${alice}`);
    console.log(`     Alice uploaded and split in ${Date.now() - started} ms: ${book.chapters.length} chapters, ${book.counts.segments} segments, ${book.counts.dialogue} lines, ${book.counts.unknown} without a speaker`);
    check(book.chapters.length === 12, `Alice has 12 chapters: ${book.chapters.map((c) => c.title)}`);
    check((await page.getByTestId('ab-chapter').locator('option').count()) === 12, 'the chapter list shows them');

    // Chapter I as paragraphs, its lines coloured and labelled by speaker.
    await page.getByTestId('ab-prose').getByText('Alice was beginning to get very tired', { exact: false }).waitFor();
    const first = await shownLines();
    check(first.length > 10, `chapter I shows its lines: ${first.length}`);
    const ch0 = await api(`/api/audiobook/books/${alice}/segments?chapter=0&limit=500`);
    check(new Set(first.map((l) => l.seg)).size === ch0.items.filter((s) => s.kind === 'dialogue').length, `every line of chapter I is drawn: ${first.length} pieces of ${ch0.total} segments`);
    const colours = new Map();
    const note = (lines) => {
      for (const l of lines) {
        check(l.label === null || l.label === (l.speaker || 'Unknown'), `a line is labelled with its speaker: ${JSON.stringify(l)}`);
        if (!colours.has(l.speaker)) colours.set(l.speaker, l.bg);
        check(colours.get(l.speaker) === l.bg, `${l.speaker} has one colour: ${colours.get(l.speaker)} and ${l.bg}`);
      }
    };
    note(first);
    check(first.some((l) => l.speaker === 'Alice'), 'Alice speaks in chapter I');
    // Chapter II by the chapter navigation: the same speakers keep their colours.
    await page.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: 'Next →' }).click();
    await page.getByTestId('ab-chapter-title').filter({ hasText: book.chapters[1].title }).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=ab-prose] .line')?.dataset.seg.startsWith('c01-'));
    const second = await shownLines();
    note(second);
    check(second.length > 10 && second.every((l) => l.seg.startsWith('c01-')), `chapter II shows its own lines only: ${second.length}`);
    const speakers = [...colours.keys()].filter(Boolean);
    check(speakers.length >= 3 && new Set(speakers.map((s) => colours.get(s))).size >= 2, `several speakers in several colours: ${JSON.stringify([...colours])}`);
    // The cast panel's swatch is the text's colour.
    const swatch = await castRow('Alice').locator('.swatch').evaluate((el) => getComputedStyle(el).backgroundColor);
    check(swatch === colours.get('Alice'), `Alice's swatch ${swatch} is her lines' colour ${colours.get('Alice')}`);
    await page.screenshot({ path: join(artifacts, 'audiobook-text.png') });
  });

  await test('audiobook: cast with a stand-in LLM and verify; the disputed filter shows the line the second pass answered differently, with the other answer and confidence', async () => {
    await api('/api/settings', json('PUT', { llm_url: `http://127.0.0.1:${port}/v1`, llm_model: 'caster' }));
    await page.reload();
    await page.getByTestId('ab-title').waitFor();
    check(await page.getByTestId('ab-mode-span').isChecked(), 'span mode is the default');
    check(await page.getByTestId('ab-verify').isChecked(), 'verify is on by default');
    const started = Date.now();
    await page.getByTestId('ab-cast').click();
    await page.getByTestId('ab-cast-note').filter({ hasText: 'Cast in span mode' }).waitFor({ timeout: 4 * SLOW });
    console.log(`     span cast with verify: ${Date.now() - started} ms, ${llm.speakers} requests; ${await page.getByTestId('ab-cast-note').innerText()}`);
    check(llm.bad.length === 0 && llm.classic === 0, `only speakers-schema requests: ${JSON.stringify(llm)}`);
    check(llm.disputed, 'the verify pass asked a line again');
    const book = await api(`/api/audiobook/books/${alice}`);
    check(book.counts.disputed === 1 && book.counts.agreed > 100 && book.counts.llm > 0, `one disputed line: ${JSON.stringify(book.counts)}`);
    await page.getByTestId('ab-counts').filter({ hasText: '1 disputed' }).waitFor();

    const filter = page.getByTestId('ab-disputed-filter');
    check((await filter.getAttribute('aria-pressed')) === 'false', 'the filter starts off');
    await filter.click();
    check((await filter.getAttribute('aria-pressed')) === 'true', 'the filter is pressed');
    const items = page.getByTestId('ab-disputed-list').locator(':scope > li');
    await items.first().waitFor();
    check((await items.count()) === 1, `one disputed line listed: ${await items.count()}`);
    const item = items.first();
    check((await item.getAttribute('data-seg')) === llm.disputed.span, `the listed line is the one answered differently: ${await item.getAttribute('data-seg')} vs ${llm.disputed.span}`);
    const mark = await item.getByTestId('ab-disputed-mark').innerText();
    check(mark.includes('disputed') && mark.includes(llm.disputed.other) && mark.includes('48.5%'), `marked with a sign, the other answer and the confidence: ${mark}`);
    // Marked by more than colour: a dashed outline and the label.
    check((await item.locator('.line').evaluate((el) => getComputedStyle(el).outlineStyle)) === 'dashed', 'the disputed line is outlined');
    await page.screenshot({ path: join(artifacts, 'audiobook-disputed.png') });
  });

  await test('audiobook: a disputed line shown in context: its chapter opens at the line, selected, with its review', async () => {
    await page.getByTestId('ab-disputed-list').getByTestId('ab-in-context').click();
    const inProse = page.locator(`[data-testid=ab-prose] .line[data-seg="${llm.disputed.span}"]`);
    await inProse.and(page.locator('[aria-pressed=true]')).waitFor();
    check((await page.getByTestId('ab-disputed-filter').getAttribute('aria-pressed')) === 'false', 'the filter is off in context');
    check(await inProse.evaluate((el) => el === document.activeElement), 'the line has the focus');
    check(await inProse.isVisible() && (await inProse.boundingBox()).y < 1000, 'the line is scrolled into view');
    await page.getByTestId('ab-line-editor').getByTestId('ab-line-other').filter({ hasText: llm.disputed.other }).waitFor();
    await page.locator(`[data-testid=ab-disputed-mark][data-seg="${llm.disputed.span}"]`).filter({ hasText: llm.disputed.other }).waitFor();
    await page.screenshot({ path: join(artifacts, 'audiobook-in-context.png') });
    // Escape closes the review and gives the focus back to the line.
    await page.keyboard.press('Escape');
    await page.getByTestId('ab-line-editor').waitFor({ state: 'detached' });
    check(await inProse.evaluate((el) => el === document.activeElement && el.getAttribute('aria-pressed') === 'false'), 'the line has the focus again, no longer pressed');
    await page.getByTestId('ab-disputed-filter').click();
  });

  await test('audiobook: reassign the disputed line by hand (keyboard), kept after a reload and shown in its chapter', async () => {
    const line = page.getByTestId('ab-disputed-list').locator('.line').first();
    await line.waitFor();
    await line.focus();
    await page.keyboard.press('Enter');
    check((await line.getAttribute('aria-pressed')) === 'true', 'the opened line is pressed');
    const editor = page.getByTestId('ab-line-editor');
    await editor.waitFor();
    check((await editor.getByTestId('ab-line-other').innerText()) === llm.disputed.other, 'the editor shows the other answer');
    const cast = (await api(`/api/audiobook/books/${alice}`)).cast.map((c) => c.name);
    const speaker = cast.find((n) => n !== llm.disputed.first && n !== llm.disputed.other);
    await editor.getByTestId('ab-speaker-select').selectOption(speaker);
    await editor.getByTestId('ab-speaker-save').click();
    await page.getByTestId('ab-text-note').filter({ hasText: `set to ${speaker}` }).waitFor();
    chosen = { span: llm.disputed.span, chapter: Number(llm.disputed.span.slice(1, llm.disputed.span.indexOf('-'))), speaker };

    await page.reload();
    await page.getByTestId('ab-title').waitFor();
    await page.getByTestId('ab-counts').filter({ hasText: '1 set by hand' }).waitFor();
    await page.getByTestId('ab-disputed-filter').click();
    await page.getByTestId('ab-no-disputed').waitFor();
    const seg = (await allSegments(alice)).find((s) => s.id === chosen.span);
    check(seg.speaker === speaker && seg.source === 'hand' && !seg.mark, `stored by hand: ${JSON.stringify(seg)}`);
    // In its chapter the line is drawn in the new speaker's colour, labelled, with no dispute.
    await page.getByTestId('ab-disputed-filter').click();
    await page.goto(`${base}/#/audiobook/${alice}/${chosen.chapter}`);
    const shown = page.locator(`[data-testid=ab-prose] .line[data-seg="${chosen.span}"]`);
    await shown.waitFor();
    check((await shown.getAttribute('data-speaker')) === speaker, 'the line shows the hand-set speaker');
    check((await page.locator(`[data-testid=ab-disputed-mark][data-seg="${chosen.span}"]`).count()) === 0, 'the line is no longer marked disputed');
    await shown.click();
    await page.getByTestId('ab-line-editor').getByTestId('ab-line-mark').filter({ hasText: 'Set by hand' }).waitFor();
    check((await page.getByTestId('ab-line-speaker').innerText()) === speaker, 'the editor shows the speaker');
  });

  await test('audiobook: a speaker saved on a stale revision is refused (409), the text reloaded and said so', async () => {
    const segs = await api(`/api/audiobook/books/${alice}/segments?chapter=${chosen.chapter}&limit=500`);
    const other = segs.items.find((s) => s.kind === 'dialogue' && s.id !== chosen.span);
    // Another tab changes the book after this page read it.
    await api(`/api/audiobook/books/${alice}/segments/${chosen.span}/speaker`, json('PUT', { speaker: chosen.speaker }, { 'If-Match': String(segs.revision) }));
    await page.locator(`[data-testid=ab-prose] .line[data-seg="${other.id}"]`).click();
    const editor = page.getByTestId('ab-line-editor');
    const names = await editor.getByTestId('ab-speaker-select').locator('option').allInnerTexts();
    const pick = names.find((n) => n !== other.speaker && n !== 'Choose…');
    await editor.getByTestId('ab-speaker-select').selectOption(pick);
    await editor.getByTestId('ab-speaker-save').click();
    await page.getByTestId('ab-text-note').filter({ hasText: 'changed since' }).waitFor();
    const after = (await api(`/api/audiobook/books/${alice}/segments?chapter=${chosen.chapter}&limit=500`)).items.find((s) => s.id === other.id);
    check(after.speaker === other.speaker, `the stale edit changed nothing: ${JSON.stringify(after)}`);
  });

  let small = null;
  await test('audiobook: ab-span-mode = 0 in localStorage selects classic mode; the stand-in sees the classic request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-e2e-book-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'letter.txt');
    writeFileSync(file, smallBook);
    await page.goto(`${base}/#/audiobook`);
    await page.getByTestId('ab-books').locator(`li[data-book="${alice}"]`).waitFor();
    await page.getByTestId('ab-file').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await waitBookReady(page, 60000);
    await page.getByTestId('ab-title').filter({ hasText: /letter/i }).waitFor();
    small = /#\/audiobook\/([a-z0-9]+)/.exec(page.url())[1];

    // The setting writes exactly ab-span-mode; a 0 put there by anyone selects classic.
    await page.getByTestId('ab-mode-classic').check();
    check((await page.evaluate(() => localStorage.getItem('ab-span-mode'))) === '0', 'classic is stored as 0');
    await page.getByTestId('ab-mode-span').check();
    check((await page.evaluate(() => localStorage.getItem('ab-span-mode'))) === '1', 'span mode is stored as another state');
    await page.evaluate(() => localStorage.setItem('ab-span-mode', '0'));
    await page.reload();
    await page.getByTestId('ab-title').waitFor();
    check(await page.getByTestId('ab-mode-classic').isChecked(), 'ab-span-mode 0 shows classic mode');

    const before = { classic: llm.classic, speakers: llm.speakers };
    await page.getByTestId('ab-verify').uncheck();
    await page.getByTestId('ab-cast').click();
    await page.getByTestId('ab-cast-note').filter({ hasText: 'Cast in classic mode' }).waitFor({ timeout: SLOW });
    check(llm.classic > before.classic && llm.speakers === before.speakers, `the stand-in got classic requests only: ${llm.classic - before.classic} classic, ${llm.speakers - before.speakers} span`);
    const book = await api(`/api/audiobook/books/${small}`);
    check(book.mode === 'classic' && book.chapters.length === 2, `cast in classic mode: ${book.mode}, ${book.chapters.map((c) => c.title)}`);
    await page.getByTestId('ab-counts').filter({ hasText: 'cast in classic mode' }).waitFor();
    // The counts show the cast book at once; its text is then read again
    // (the rules' lines stay drawn, or none, until the classic ones arrive).
    await page.waitForFunction(() => {
      const lines = [...document.querySelectorAll('[data-testid=ab-prose] .line')];
      return lines.length > 0 && lines.every((el) => el.dataset.seg.includes('-k'));
    }, null, { timeout: 60000 }).catch(async (e) => { throw new Error(`the classic segments were not drawn: ${JSON.stringify(await shownLines())}\n${e}`); });
    const lines = await shownLines();
    check(lines.length >= 3 && lines.every((l) => l.seg.includes('-k')) && lines.some((l) => /Captain/.test(l.speaker)), `classic segments drawn: ${JSON.stringify(lines)}`);
  });

  await test('audiobook: espeak-ng voices for a character (a suggestion) and the narrator (from the library); render; the M4B has the chapters and a chapter MP3 plays', async () => {
    const panel = page.getByTestId('ab-cast-panel');
    // The narrator from the whole library with the voice picker.
    await panel.getByTestId('ab-narrator').getByRole('button', { name: 'Library…' }).click();
    const picker = panel.getByTestId('ab-narrator-picker');
    await picker.getByRole('searchbox').fill(espeak.name);
    await picker.getByRole('listbox').locator(`option[value="${espeak.id}"]`).waitFor();
    await picker.getByRole('listbox').selectOption(espeak.id);
    // A select is disabled while its choice is being saved: wait for the save, not only the choice.
    await page.waitForFunction((id) => { const s = document.querySelector('[data-testid=ab-narrator-select]'); return s?.value === id && !s.disabled; }, espeak.id);
    // Mary from her suggestions (by gender, then age).
    const sugg = await api(`/api/audiobook/books/${small}/voice-suggestions`);
    const marySugg = sugg.characters.find((c) => c.name === 'Mary');
    check(marySugg?.voices?.length, `voices are suggested for Mary: ${JSON.stringify(sugg.characters)}`);
    const row = castRow('Mary');
    await row.getByTestId('ab-voice-select').selectOption(marySugg.voices[0].voice_id);
    await page.waitForFunction((id) => [...document.querySelectorAll('[data-testid=ab-voice-select]')].some((s) => s.value === id && !s.disabled), marySugg.voices[0].voice_id);
    const book = await api(`/api/audiobook/books/${small}`);
    const maryVoice = book.cast.find((c) => c.name === 'Mary').voice_id;
    check(book.narrator_voice === espeak.id && maryVoice === marySugg.voices[0].voice_id, `voices saved: narrator ${book.narrator_voice}, Mary ${maryVoice}`);
    check((await api(`/api/voices/${maryVoice}`)).engine === 'espeak-ng', 'Mary speaks with espeak-ng');

    const started = Date.now();
    await page.getByTestId('ab-render-start').click();
    const m4b = page.getByTestId('ab-m4b-link');
    await page.getByTestId('ab-render-progress').or(m4b).first().waitFor({ timeout: 60000 });
    await page.getByTestId('ab-mp3-links').locator('li').nth(1).waitFor({ timeout: 3 * SLOW });
    console.log(`     render of a two-chapter book: ${Date.now() - started} ms`);
    await page.getByTestId('ab-render').screenshot({ path: join(artifacts, 'audiobook-render.png') });

    const dir = mkdtempSync(join(tmpdir(), 'lectern-e2e-ab-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const save = async (link, name) => {
      const res = await fetch(await link.evaluate((a) => a.href));
      check(res.ok, `${name} downloads (${res.status})`);
      const file = join(dir, name);
      writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      return file;
    };
    const probe = (file, ...args) => JSON.parse(execFileSync('ffprobe', ['-v', 'error', ...args, '-of', 'json', file], { encoding: 'utf8' }));
    const book4b = await save(m4b, 'letter.m4b');
    const chapters = probe(book4b, '-show_chapters').chapters;
    const titles = chapters.map((c) => c.tags?.title);
    console.log(`     M4B chapters: ${chapters.map((c) => `${c.tags?.title} ${Number(c.start_time).toFixed(1)}–${Number(c.end_time).toFixed(1)} s`).join('; ')}`);
    check(JSON.stringify(titles) === JSON.stringify(['CHAPTER I. The Post', 'CHAPTER II. The Reply']), `a chapter per book chapter: ${JSON.stringify(titles)}`);
    check(chapters.every((c) => Number(c.end_time) > Number(c.start_time)), 'every chapter has length');
    const mp3 = await save(page.getByTestId('ab-mp3-links').locator('a[data-chapter="1"]'), 'ch2.mp3');
    const fmt = probe(mp3, '-show_format').format;
    check(fmt.format_name === 'mp3' && Number(fmt.duration) > 1, `chapter II's MP3: ${JSON.stringify(fmt)}`);
    check(readFileSync(mp3).length > 1000, 'the MP3 has audio');
  });

  await test('audiobook: a Latin-1 TXT reads as written, and markup in a book is shown as text, never run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-e2e-latin1-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'cafe.txt');
    writeFileSync(file, Buffer.from('CHAPTER I. Le Café\n\nRené ordered a crème brûlée at the café.\n\n"<b>Très</b> bien<img src=x onerror=alert(1)>," said René.\n', 'latin1'));
    await page.goto(`${base}/#/audiobook`);
    // A file that is not a book is refused before it is sent.
    await page.getByTestId('ab-file').setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await page.getByTestId('ab-upload-problem').filter({ hasText: 'not a .txt or .epub' }).waitFor();
    check(await page.getByRole('button', { name: 'Upload' }).isDisabled(), 'Upload waits for a book');
    await page.getByTestId('ab-file').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    const prose = page.getByTestId('ab-prose');
    await prose.getByText('René ordered a crème brûlée at the café.').waitFor({ timeout: 60000 });
    await prose.getByText('"<b>Très</b> bien<img src=x onerror=alert(1)>,"').waitFor();
    check((await prose.locator('b, img').count()) === 0, 'no element was made from the book');
  });

  await test('audiobook: an EPUB uploads with its title, author and chapters from its table of contents, its dialogue coloured', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-e2e-epub-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'lighthouse.epub');
    writeFileSync(file, smallEPUB());
    await page.goto(`${base}/#/audiobook`);
    await page.getByTestId('ab-file').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await waitBookReady(page, 60000);
    await page.getByTestId('ab-title').filter({ hasText: 'The Lighthouse Keeper' }).waitFor();
    await page.getByText('by Ann Writer').waitFor();
    check((await page.getByTestId('ab-counts').innerText()).startsWith('EPUB · 2 chapter(s)'), `an EPUB of two chapters: ${await page.getByTestId('ab-counts').innerText()}`);
    check(JSON.stringify(await page.getByTestId('ab-chapter').locator('option').allInnerTexts()) === JSON.stringify(['1. The Lamp', '2. The Storm']), 'the chapters are the table of contents');
    await page.locator('[data-testid=ab-prose] .line[data-speaker="Tom"]').filter({ hasText: '“The lamp is lit,”' }).waitFor();
  });

  await test('audiobook: a book its import job cannot read ends failed: the page and the list say why in a sentence, and it can be deleted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-e2e-empty-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // Text (the upload's check passes it: 202) with nothing between its
    // Project Gutenberg markers, found only by the import job.
    const file = join(dir, 'hollow.txt');
    writeFileSync(file, '*** START OF THE PROJECT GUTENBERG EBOOK HOLLOW ***\n\n*** END OF THE PROJECT GUTENBERG EBOOK HOLLOW ***\n');
    await page.goto(`${base}/#/audiobook`);
    await page.getByTestId('ab-file').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    const failed = page.getByTestId('ab-import-error');
    await failed.waitFor({ timeout: 60000 });
    const said = await failed.innerText();
    check(said === 'The import failed: hollow.txt: no text between the Project Gutenberg markers: not a readable book.', `the page says why: ${said}`);
    const id = /#\/audiobook\/([a-z0-9]+)/.exec(page.url())?.[1];
    const book = await api(`/api/audiobook/books/${id}`);
    check(book.status === 'failed' && book.import_job_status?.status === 'failed', `the book and its job failed: ${book.status}, ${book.import_job_status?.status}`);
    await page.getByRole('link', { name: '← All books' }).click();
    const listed = page.getByTestId('ab-books').locator(`li[data-book="${id}"]`);
    check((await listed.getByTestId('ab-book-status').innerText()) === 'import failed', 'the list marks it failed');
    await listed.getByRole('link').click();
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Delete book' }).click();
    await page.waitForURL((u) => u.hash === '#/audiobook');
    await waitUntil('the failed book is gone', () => fetch(`${base}/api/audiobook/books/${id}`).then((r) => r.status), (s) => s === 404);
  });

  await test('audiobook: a long chapter is drawn a page of segments at a time, the next page as its end scrolls into view', async () => {
    const talk = Array.from({ length: 600 }, (_, i) => `"This is line ${i + 1}," said Mary.`).join('\n\n');
    const long = await importBook(base, 'long.txt', `CHAPTER I. The Long Talk\n\n${talk}\n`);
    check(long.status === 'ready', `long.txt imported: ${long.status} ${long.error ?? ''}`);
    check(long.counts.segments > 1000, `one chapter of ${long.counts.segments} segments`);
    await page.goto(`${base}/#/audiobook/${long.id}/0`);
    const drawn = () => page.locator('[data-testid=ab-prose] [data-seg]').evaluateAll((els) => new Set(els.map((e) => e.dataset.seg)).size);
    await page.getByTestId('ab-prose').getByText('This is line 1,', { exact: false }).waitFor();
    const firstPage = await drawn();
    check(firstPage > 0 && firstPage <= 400, `the first page only: ${firstPage} of ${long.counts.segments} segments drawn`);
    const more = page.getByRole('button', { name: /^Show more/ });
    check((await more.innerText()).includes(`of ${long.counts.segments} segments`), `the button says how much is shown: ${await more.innerText()}`);
    await more.scrollIntoViewIfNeeded();
    await page.waitForFunction((n) => new Set([...document.querySelectorAll('[data-testid=ab-prose] [data-seg]')].map((e) => e.dataset.seg)).size > n, firstPage);
    check(await page.getByTestId('ab-prose').getByText('This is line 150,', { exact: false }).count() === 1, 'the next page follows in order');
  });

  await test('audiobook: a cast already running when the book opens shows its progress, then its outcome', async () => {
    let release;
    llm.hold = { promise: new Promise((r) => (release = r)) };
    castBook(alice); // Alice has lines the rules leave, so the job must ask
    const started = await api('/api/attribute-spans', json('POST', { book_id: alice, mode: 'span' }));
    check(started.job_id, `a cast job started: ${JSON.stringify(started)}`);
    await page.goto(`${base}/#/audiobook/${alice}`);
    await page.getByTestId('ab-cast-progress').waitFor({ timeout: 60000 });
    check(await page.getByTestId('ab-cast').isDisabled(), 'Cast waits for the running job');
    release();
    llm.hold = null;
    await page.getByTestId('ab-cast-note').filter({ hasText: 'Cast in span mode' }).waitFor({ timeout: 4 * SLOW });
    check((await api(`/api/audiobook/books/${alice}`)).counts.hand === 1, 'the book was cast again, the hand-set line kept');
  });

  await context.close();
}
