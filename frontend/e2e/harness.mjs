// The e2e harness: the real `lectern serve` binary, real Chromium, and the
// small checks every spec file uses. run.mjs runs the specs in specs/.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createServer as createHTTPServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { samplePDF } from './pdf.mjs';

const here = new URL('.', import.meta.url).pathname;
const bin = resolve(process.env.LECTERN_BIN ?? join(here, '../../bin/lectern'));
export const version = readFileSync(join(here, '../../VERSION'), 'utf8').trim();
export const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export const cleanups = [];
/** Tests passed and failed so far (run.mjs prints the verdict). */
export const tally = { passed: 0, failed: 0 };

export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

export async function startServer(env = {}) {
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), 'lectern-e2e-'));
  const proc = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data', data], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  proc.stderr.on('data', (d) => (log += d));
  cleanups.push(() => {
    proc.kill('SIGTERM');
    rmSync(data, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${port}`;
  const headers = env.LECTERN_TOKEN ? { Authorization: `Bearer ${env.LECTERN_TOKEN}` } : {};
  await waitUntil('lectern answers /api/health', async () => {
    if (proc.exitCode !== null) throw new Error(`lectern exited ${proc.exitCode}:\n${log}`);
    return fetch(`${base}/api/health`, { headers }).then((r) => r.ok, () => false);
  }, Boolean, { timeout: SLOW, every: 100, detail: () => log });
  return { base, log: () => log };
}

/**
 * The bound of a wait for background work (a job, a render, a server
 * starting): long enough for a 2-core machine shared by many test runs, as it
 * only bounds a failure; a wait that succeeds returns as soon as its state holds.
 */
export const SLOW = 120000;

/**
 * Asks probe() until ok(its answer) holds and returns that answer: a wait for
 * a state, never for a time. After timeout ms (a bound for failure, measured
 * on the clock, not in tries) it fails with what and the last answer seen.
 */
export async function waitUntil(what, probe, ok = Boolean, { timeout = SLOW, every = 200, detail = () => '' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const got = await probe();
    if (ok(got)) return got;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting until ${what}; last: ${JSON.stringify(got)?.slice(0, 2000)}\n${detail()}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** A promise and its resolve: a stand-in holds an answer until the test has seen the busy state. */
export function held() {
  let release;
  const promise = new Promise((r) => (release = r));
  return { promise, release };
}

/**
 * Waits until an uploaded book's page shows it imported (the upload answers
 * 202 and its import job makes it ready): its counts, which only a ready
 * book shows. A failed import fails the wait with what the page says.
 */
export async function waitBookReady(page, timeout = SLOW) {
  const ready = page.getByTestId('ab-counts');
  const failed = page.getByTestId('ab-import-error');
  await ready.or(failed).first().waitFor({ timeout });
  if (await failed.count()) throw new Error(`the import failed: ${await failed.innerText()}`);
}

/** Uploads a book through the API (202: importing) and polls it until it is no longer importing. */
export async function importBook(base, name, body, type = 'text/plain') {
  const form = new FormData();
  form.append('file', new Blob([body], { type }), name);
  const res = await fetch(`${base}/api/audiobook/books`, { method: 'POST', body: form });
  const started = await res.json();
  check(res.status === 202 && res.headers.get('location') === `/api/audiobook/books/${started.id}`, `upload of ${name} answered ${res.status} ${res.headers.get('location')}: ${JSON.stringify(started).slice(0, 300)}`);
  return waitUntil(`${name} is imported`, () => getJSON(`${base}/api/audiobook/books/${started.id}`), (b) => b.status !== 'importing', { every: 50 });
}

/**
 * The review workspace of an ingested issue: its API (api, base), a region
 * found by its opening text, a page opened in a new browser context at a
 * viewport (laptop by default) once its regions are drawn, and a wait for the
 * workspace's status line.
 */
export function workspace(server, browser, issue) {
  const base = `${server.base}/api/magazine/${issue.id}`;
  const api = (path) => getJSON(`${base}${path}`);
  const regionOf = async (n, text) => {
    const r = (await api(`/pages/${n}`)).regions.find((g) => (g.text ?? '').startsWith(text));
    check(r, `page ${n} has a region starting ${JSON.stringify(text)}`);
    return r;
  };
  const open = async (n, viewport = { width: 1440, height: 900 }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${server.base}/#/magazine/${issue.id}/${n}`);
    await page.locator('svg.overlay rect[data-id]').first().waitFor();
    return { context, page };
  };
  const status = (page, text) => page.getByTestId('review-status').filter({ hasText: text }).waitFor();
  return { base, api, regionOf, open, status };
}

export function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}

export async function test(name, fn) {
  const started = Date.now();
  try {
    await fn();
    tally.passed++;
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    tally.failed++;
    console.log(`FAIL ${name}\n     ${e.stack ?? e}`);
  }
}

/**
 * Records every response body the page receives. The returned function
 * fails if a body that should be there could not be read (only redirects
 * have none), so no response escapes the checks made on the bodies.
 */
export function recordBodies(page) {
  const pending = [];
  page.on('response', (resp) => {
    pending.push(resp.body().then(
      (b) => ({ url: resp.url(), body: b.toString('utf8') }),
      (e) => ({ url: resp.url(), status: resp.status(), error: String(e) }),
    ));
  });
  return async () => {
    const all = await Promise.all(pending);
    const unread = all.filter((r) => r.error && !(r.status >= 300 && r.status < 400));
    check(unread.length === 0, `response bodies that could not be read: ${JSON.stringify(unread)}`);
    return all.filter((r) => !r.error);
  };
}

/** Checks that bodies hold one from a URL containing urlPart and that none holds a secret. */
export function checkNoSecrets(bodies, urlPart, secrets) {
  check(bodies.some((b) => b.url.includes(urlPart)), `no response from ${urlPart} was recorded`);
  for (const b of bodies) {
    for (const s of secrets) check(!b.body.includes(s), `secret found in response body of ${b.url}`);
  }
}

/** Fetches JSON, failing unless the server answers 2xx. */
export async function getJSON(url, init) {
  const res = await fetch(url, init);
  const text = await res.text();
  check(res.ok, `${init?.method ?? 'GET'} ${url} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

/** Uploads a PDF through the API and waits until its issue is ready. The
 *  articles ingest proposed are dissolved (the specs that build articles by
 *  hand start from none) unless keepProposals is set. */
export async function ingest(base, name, pdf, { keepProposals = false } = {}) {
  const form = new FormData();
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), name);
  const res = await fetch(`${base}/api/magazine`, { method: 'POST', body: form });
  const text = await res.text();
  check(res.status === 202, `upload answered ${res.status}: ${text}`);
  const issue = JSON.parse(text);
  const { status } = await waitUntil(`issue ${issue.id} is ingested`, () => getJSON(`${base}/api/magazine/${issue.id}`),
    (is) => is.status === 'ready' || is.status === 'failed');
  check(status === 'ready', `issue ${issue.id} ended ${status}, want ready`);
  if (!keepProposals) await dissolveProposals(base, issue.id);
  return issue;
}

/** Dissolves every proposed article of an issue through the API. */
export async function dissolveProposals(base, id) {
  const { articles } = await getJSON(`${base}/api/magazine/${id}/articles`);
  for (const a of articles.filter((a) => a.proposed)) {
    await getJSON(`${base}/api/magazine/${id}/articles/${a.id}/proposal`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ action: 'dissolve' }),
    });
  }
}

/** A WAV of seconds of a quiet 440 Hz tone: 8 kHz, 8-bit mono PCM. */
export function toneWAV(seconds) {
  const rate = 8000;
  const n = Math.round(rate * seconds);
  const b = Buffer.alloc(44 + n);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + n, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(n, 40);
  for (let i = 0; i < n; i++) b[44 + i] = 128 + Math.round(20 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return b;
}

/** Where tests keep screenshots and other artifacts (E2E_ARTIFACTS, or e2e/artifacts). */
export const artifacts = resolve(process.env.E2E_ARTIFACTS ?? join(here, 'artifacts'));
mkdirSync(artifacts, { recursive: true });

/** Real Chromium with the flags this machine needs. */
export async function launchBrowser() {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs, headless: true });
  cleanups.push(() => browser.close());
  return browser;
}

export { samplePDF, createHTTPServer };

