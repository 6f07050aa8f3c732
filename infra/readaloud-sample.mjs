// Read-aloud on the sample magazines, measured through the real server:
// how long "Listen" takes to give its first audio on the FAA sample with
// espeak-ng, and the chapters of the Federal Register sample's issue M4B
// (one per article). Articles are made the way a reviewer would make them
// from the recognised layout: every headline starts a new article, and each
// takes the readable regions that follow it in reading order.
//
//   make readaloud-sample      (builds bin/lectern first)
//   node infra/readaloud-sample.mjs [bin/lectern] [data folder]
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

const bin = process.argv[2] ?? 'bin/lectern';
const samples = process.argv[3] ?? '../shared/data/magazines';
const FAA = '04_faa_amt_handbook_p7-45.pdf';
const FEDERAL_REGISTER = '05_federal_register_2020-17221.pdf';

// Regions a reader hears; anything else (furniture, ads, page numbers) is left out.
const READ = new Set(['headline', 'deck', 'subhead', 'byline', 'paragraph', 'list', 'caption', 'sidebar', 'pull-quote', 'image', 'figure', 'chart', 'table']);

// A section shorter than this runs on into the next heading's (a run of
// short headings, such as an agency's name above a rule, is one section).
const MIN_WORDS = 40;

/** A headline, or a subhead that reads as a title: short, capitalised, no sentence or address in it. */
function isHeading(kind, text) {
  if (kind === 'headline') return true;
  return kind === 'subhead' && /^[A-Z]/.test(text) && !/[.:;]|www|http/i.test(text) && text.split(' ').length <= 8;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function api(base, method, path, body) {
  const init = { method, headers: {} };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(base + path, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

async function ingest(base, file) {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(join(samples, file))], { type: 'application/pdf' }), file);
  const issue = await api(base, 'POST', '/api/magazine', form);
  for (let i = 0; i < 1500; i++) {
    const is = await api(base, 'GET', `/api/magazine/${issue.id}`);
    if (is.status === 'ready') {
      // The articles are built by hand below: the proposed ones go.
      const { articles } = await api(base, 'GET', `/api/magazine/${is.id}/articles`);
      for (const a of articles.filter((a) => a.proposed)) {
        await api(base, 'POST', `/api/magazine/${is.id}/articles/${a.id}/proposal`, { action: 'dissolve' });
      }
      return is;
    }
    if (is.status === 'failed') throw new Error(`${file}: ingest failed: ${is.error ?? ''}`);
    await sleep(200);
  }
  throw new Error(`${file}: ingest did not finish in 5 minutes`);
}

/** Makes one approved article per section (see isHeading), from the readable regions in reading order. */
async function makeArticles(base, issue) {
  const groups = [];
  for (let n = 1; n <= issue.page_count; n++) {
    const page = await api(base, 'GET', `/api/magazine/${issue.id}/pages/${n}`);
    for (const r of page.regions ?? []) {
      if (!READ.has(r.kind)) continue;
      const text = (r.text ?? '').replace(/\s+/g, ' ').trim();
      const heading = isHeading(r.kind, text);
      const last = groups[groups.length - 1];
      // A section starts where a heading does, once the one before has said something.
      if (!last || (heading && last.words >= MIN_WORDS)) groups.push({ title: heading ? text : text.split(' ').slice(0, 8).join(' '), regions: [], words: 0 });
      const g = groups[groups.length - 1];
      g.regions.push({ page: n, region: r.id });
      if (!heading) g.words += text.split(' ').filter(Boolean).length;
    }
  }
  const made = [];
  for (const [i, g] of groups.entries()) {
    const title = g.title.slice(0, 120) || `${issue.title} (part ${i + 1})`;
    const a = await api(base, 'POST', `/api/magazine/${issue.id}/articles`, { title, regions: g.regions });
    const article = a.article ?? a;
    // Approval names what the reviewer saw: the article's regions and images.
    await api(base, 'POST', `/api/magazine/${issue.id}/articles/${article.id}/approve`, { regions: article.regions ?? [], images: article.images ?? [] });
    made.push({ id: article.id, title });
  }
  return made;
}

async function waitRender(base, id) {
  for (let i = 0; i < 6000; i++) {
    const st = await api(base, 'GET', `/api/speech/renders/${id}`);
    if (st.status === 'succeeded') return st;
    if (st.status === 'failed') throw new Error(`render ${id} failed: ${st.error}`);
    await sleep(100);
  }
  throw new Error(`render ${id} did not finish in 10 minutes`);
}

/** Milliseconds from asking to listen until the first chunk's audio has arrived. */
async function timeToFirstAudio(base, issue, article, voice) {
  const t0 = performance.now();
  const st = await api(base, 'POST', `/api/magazine/${issue}/articles/${article}/listen`, { voice_id: voice, format: 'mp3' });
  for (;;) {
    const page = await api(base, 'GET', `/api/speech/renders/${st.id}/chunks?from=0&limit=1`);
    if (page.chunks?.length) {
      const res = await fetch(new URL(page.chunks[0].url, base));
      const audio = new Uint8Array(await res.arrayBuffer());
      if (!res.ok || audio.length < 44) throw new Error(`chunk 0 answered ${res.status} with ${audio.length} bytes`);
      return { ms: performance.now() - t0, render: st.id, chunks: page.total };
    }
    if (page.status === 'failed') throw new Error(`render failed: ${page.error ?? ''}`);
    await sleep(25);
  }
}

async function main() {
  const data = mkdtempSync(join(tmpdir(), 'lectern-readaloud-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data', data], { stdio: ['ignore', 'ignore', 'ignore'] });
  try {
    for (let i = 0; ; i++) {
      try {
        await api(base, 'GET', '/api/health');
        break;
      } catch (err) {
        if (i > 300) throw err;
        await sleep(100);
      }
    }
    // The built-in voice the sample reads with: espeak-ng's American English.
    const found = await api(base, 'GET', '/api/voices?source=builtin&language=en-us&limit=1');
    const voice = found.voices?.[0]?.id ?? found.items?.[0]?.id;
    if (!voice) throw new Error('no built-in en-us voice in the library');

    const faa = await ingest(base, FAA);
    const faaArticles = await makeArticles(base, faa);
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const first = await timeToFirstAudio(base, faa.id, faaArticles[0].id, voice);
      runs.push(first.ms);
      await waitRender(base, first.render); // the next run starts from a cold renderer, not a busy one
      // A later run would find every chunk cached: measure the cold case only once, then the warm.
    }
    console.log(`FAA sample (${FAA}), voice ${voice}: Listen → first audio ${runs.map((ms) => ms.toFixed(0) + ' ms').join(', ')} (first run cold: nothing cached; later runs find the chunks cached)`);

    const fr = await ingest(base, FEDERAL_REGISTER);
    const frArticles = await makeArticles(base, fr);
    const t0 = performance.now();
    const st = await api(base, 'POST', `/api/magazine/${fr.id}/listen`, { voice_id: voice, format: 'm4b' });
    await waitRender(base, st.id);
    const res = await fetch(`${base}/api/speech/renders/${st.id}/audio`);
    if (!res.ok) throw new Error(`audio answered ${res.status}`);
    const file = join(data, 'federal-register.m4b');
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
    const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_chapters', '-show_format', '-of', 'json', file], { encoding: 'utf8' }));
    console.log(`\nFederal Register sample (${FEDERAL_REGISTER}): ${frArticles.length} approved articles; issue M4B rendered in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${Number(probe.format.duration).toFixed(1)} s long, ${probe.chapters.length} chapters:`);
    for (const c of probe.chapters) {
      const fmt = (s) => new Date(Number(s) * 1000).toISOString().slice(11, 19);
      console.log(`  ${fmt(c.start_time)}–${fmt(c.end_time)}  ${c.tags?.title ?? ''}`);
    }
    if (probe.chapters.length !== frArticles.length) throw new Error(`${probe.chapters.length} chapters for ${frArticles.length} articles`);
  } finally {
    server.kill('SIGTERM');
    await sleep(300);
    rmSync(data, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
