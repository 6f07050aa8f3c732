// Measured on request (LECTERN_SAMPLES=<folder of the sample magazines>;
// run.mjs loads samples/ only then, and `make readaloud-sample` sets it):
// the reader on real samples. Prints the time from the Listen click to the
// first audio in Chromium on the FAA sample with espeak-ng, and the chapter
// listing (ffprobe) of the Federal Register sample's issue M4B downloaded
// from the reader. Articles are made as a reviewer would: every headline (in
// the Federal Register, every section heading too) starts one, taking the
// readable regions that follow in reading order.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { check, cleanups, dissolveProposals, getJSON, test } from '../harness.mjs';

const FAA = '04_faa_amt_handbook_p7-45.pdf';
const FEDERAL_REGISTER = '05_federal_register_2020-17221.pdf';
const READ = new Set(['headline', 'deck', 'subhead', 'byline', 'paragraph', 'list', 'caption', 'sidebar', 'pull-quote', 'table']);
const json = (method, body) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

async function ingestSample(base, file) {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(join(process.env.LECTERN_SAMPLES, file))], { type: 'application/pdf' }), file);
  const issue = await getJSON(`${base}/api/magazine`, { method: 'POST', body: form });
  for (let i = 0; i < 1500; i++) {
    const is = await getJSON(`${base}/api/magazine/${issue.id}`);
    if (is.status === 'ready') {
      // The articles are built by hand below, one per section.
      await dissolveProposals(base, is.id);
      return is;
    }
    check(is.status !== 'failed', `${file}: ingest failed: ${is.error ?? ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${file}: ingest did not finish in 5 minutes`);
}

/** One approved article per heading (of the kinds in starts), in reading order. */
async function articlesByHeading(base, issue, starts = new Set(['headline'])) {
  const groups = [];
  for (let n = 1; n <= issue.page_count; n++) {
    const page = await getJSON(`${base}/api/magazine/${issue.id}/pages/${n}`);
    for (const id of page.order ?? []) {
      const r = page.regions.find((x) => x.id === id);
      if (!r || !READ.has(r.kind)) continue;
      if (starts.has(r.kind) || !groups.length) groups.push({ title: starts.has(r.kind) ? r.text.replace(/\s+/g, ' ').trim().slice(0, 120) : issue.title, regions: [] });
      groups.at(-1).regions.push({ page: n, region: r.id });
    }
  }
  const made = [];
  for (const g of groups) {
    const a = (await getJSON(`${base}/api/magazine/${issue.id}/articles`, json('POST', g))).article;
    await getJSON(`${base}/api/magazine/${issue.id}/articles/${a.id}/approve`, json('POST', { regions: a.regions ?? [], images: a.images ?? [] }));
    made.push(a);
  }
  return made;
}

async function chooseNarrator(page, voice) {
  const picker = page.getByTestId('narrator');
  await picker.getByRole('searchbox').fill(voice.name);
  await picker.getByRole('listbox').locator(`option[value="${voice.id}"]`).waitFor();
  await picker.getByRole('listbox').selectOption(voice.id);
}

export default async function ({ server, browser }) {
  const dir = process.env.LECTERN_SAMPLES;
  const base = server.base;
  const voice = (await getJSON(`${base}/api/voices?language=en-us&source=builtin&engine=espeak-ng&limit=1`)).items[0];
  const context = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
  cleanups.push(() => context.close());
  const page = await context.newPage();

  if (existsSync(join(dir, FAA))) {
    await test(`samples: Listen → first audio on the FAA sample (${FAA}) with espeak-ng`, async () => {
      const issue = await ingestSample(base, FAA);
      const [first] = await articlesByHeading(base, issue);
      await page.goto(`${base}/#/magazine/${issue.id}/articles/${first.id}`);
      await page.getByTestId('reader-title').waitFor();
      await chooseNarrator(page, voice);
      const times = [];
      for (let run = 0; run < 3; run++) {
        await page.getByTestId('listen').click();
        const player = page.getByTestId('player').and(page.locator('[data-first-audio-ms]'));
        await player.waitFor({ timeout: 30000 });
        times.push(Number(await player.getAttribute('data-first-audio-ms')));
        // The next run starts from an idle renderer.
        const render = await player.getAttribute('data-render');
        for (let i = 0; i < 600 && (await getJSON(`${base}/api/speech/renders/${render}`)).status !== 'succeeded'; i++) await new Promise((r) => setTimeout(r, 100));
      }
      console.log(`     FAA sample, "${first.title}", voice ${voice.id}: Listen → first audio in Chromium ${times.join(' ms, ')} ms (first run cold; later runs find the chunks cached)`);
      check(times[0] > 0, 'audio played');
    });
  }

  if (existsSync(join(dir, FEDERAL_REGISTER))) {
    await test(`samples: the Federal Register sample's issue M4B (${FEDERAL_REGISTER}) has a chapter per article`, async () => {
      const issue = await ingestSample(base, FEDERAL_REGISTER);
      // Its one headline is the section name: its sections (subheads) are the articles.
      const articles = await articlesByHeading(base, issue, new Set(['headline', 'subhead']));
      await page.goto(`${base}/#/magazine/${issue.id}/articles/${articles[0].id}`);
      await page.getByTestId('reader-title').waitFor();
      await chooseNarrator(page, voice);
      const started = performance.now();
      await page.getByTestId('issue-download').getByRole('button', { name: 'Download issue (M4B)' }).click();
      const link = page.getByTestId('issue-download-link');
      await link.waitFor({ timeout: 600000 });
      const res = await fetch(await link.evaluate((a) => a.href));
      check(res.ok, `the M4B downloads (${res.status})`);
      const tmp = mkdtempSync(join(tmpdir(), 'lectern-e2e-fr-'));
      cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
      const file = join(tmp, 'federal-register.m4b');
      writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_chapters', '-show_format', '-of', 'json', file], { encoding: 'utf8' }));
      const hms = (s) => new Date(Number(s) * 1000).toISOString().slice(11, 19);
      console.log(`     Federal Register sample: ${articles.length} approved articles; M4B ready in ${((performance.now() - started) / 1000).toFixed(0)} s, ${hms(probe.format.duration)} long, ${probe.chapters.length} chapters:`);
      for (const c of probe.chapters) console.log(`       ${hms(c.start_time)}–${hms(c.end_time)}  ${c.tags?.title ?? ''}`);
      check(probe.chapters.length === articles.length, `${probe.chapters.length} chapters for ${articles.length} articles`);
    });
  }
}
