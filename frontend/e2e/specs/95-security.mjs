// e2e: Pages of other origins cannot change a local Lectern (cross-site
// forms and no-cors fetches, DNS rebinding), while the app keeps working.
import { chromium } from 'playwright-core';
import { artifacts, check, chromiumArgs, cleanups, createHTTPServer, freePort, getJSON, samplePDF, startServer, test, waitUntil } from '../harness.mjs';

/** Runs this file's tests; it starts its own server so "nothing changed" is exact. */
export default async function ({ browser }) {
  const victim = await startServer();
  const base = victim.base;
  // A card whose container start would reach the Docker host, and whose
  // use-as-llm would rewrite llm_url, if a foreign page could call them.
  await getJSON(`${base}/api/engines/gateway`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ kind: 'llm', base_url: 'http://127.0.0.1:9/v1', container: 'gateway' }),
  });

  await test('security: forms and no-cors fetches from another origin change nothing, the app still saves', async () => {
    const pdf = Buffer.from(samplePDF()).toString('base64');
    // The attacker's page: another port of 127.0.0.1 is another origin.
    const attackerPort = await freePort();
    const attacker = createHTTPServer((req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><title>attacker</title>
<iframe name="sink1"></iframe><iframe name="sink2"></iframe><iframe name="sink3"></iframe>
<form id="upload" method="POST" action="${base}/api/magazine" enctype="multipart/form-data" target="sink1">
  <input type="file" name="file"><input name="title" value="planted">
</form>
<form id="llm" method="POST" action="${base}/api/engines/gateway/use-as-llm" target="sink2"></form>
<form id="json" method="POST" action="${base}/api/magazine/uploads" enctype="text/plain" target="sink3">
  <input name='{"title":"planted","filename":"x.pdf","size":10,"pad":"' value='"}'>
</form>
<script>
  const bytes = Uint8Array.from(atob('${pdf}'), (c) => c.charCodeAt(0));
  const dt = new DataTransfer();
  dt.items.add(new File([bytes], 'planted.pdf', { type: 'application/pdf' }));
  document.querySelector('#upload input[type=file]').files = dt.files;
  let loads = 0;
  for (const f of document.querySelectorAll('iframe')) f.addEventListener('load', () => { loads++; });
  document.getElementById('upload').submit();
  document.getElementById('llm').submit();
  document.getElementById('json').submit();
  window.attack = Promise.allSettled([
    fetch('${base}/api/engines/gateway/start', { method: 'POST', mode: 'no-cors' }),
    fetch('${base}/api/engines/gateway/restart', { method: 'POST', mode: 'no-cors', body: 'x' }),
  ]).then(async () => { while (loads < 3) await new Promise((r) => setTimeout(r, 50)); return 'done'; });
</script>`);
    });
    await new Promise((r) => attacker.listen(attackerPort, '127.0.0.1', r));
    cleanups.push(() => attacker.close());

    const before = await getJSON(`${base}/api/settings`);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${attackerPort}/`);
    check((await page.evaluate(() => window.attack)) === 'done', 'the attack page ran to the end');
    await page.screenshot({ path: `${artifacts}/95-security-attacker.png` });

    const issues = await getJSON(`${base}/api/magazine`);
    const list = issues.issues ?? issues.items ?? issues;
    check(Array.isArray(list) && list.length === 0, `nothing was ingested: ${JSON.stringify(issues)}`);
    const after = await getJSON(`${base}/api/settings`);
    check(JSON.stringify(after) === JSON.stringify(before), `settings unchanged: ${JSON.stringify(after)}`);
    // Every attempt reached the server and was refused there (403), not lost
    // on the way. The server's log reaches this process through a pipe, after
    // the answers reached the page: its lines are waited for.
    const paths = ['/api/magazine', '/api/engines/gateway/use-as-llm', '/api/magazine/uploads', '/api/engines/gateway/start', '/api/engines/gateway/restart'];
    const refused = (log) => paths.filter((path) => new RegExp(`"method":"POST","path":"${path}","status":403`).test(log));
    const log = await waitUntil('the server has logged every attempt', () => victim.log(),
      (l) => refused(l).length === paths.length || /"method":"POST"[^\n]*"status":(?!403)/.test(l), { timeout: 60000, every: 50 });
    for (const path of paths) check(refused(log).includes(path), `POST ${path} was refused with 403:\n${log}`);

    // The app itself, in the same browser, still changes settings.
    const app = await context.newPage();
    await app.goto(`${base}/#/settings`);
    await app.getByLabel('Instance name').fill('kept working');
    await app.getByRole('button', { name: 'Save' }).first().click();
    await app.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    check((await getJSON(`${base}/api/settings`)).instance_name === 'kept working', 'the app saved its settings');
    await context.close();
  });

  await test('security: a page whose name re-resolves to 127.0.0.1 gets 421, not the settings', async () => {
    const port = new URL(base).port;
    // Chromium resolves rebind.test to 127.0.0.1, as a rebinding DNS server would.
    const rebound = await chromium.launch({
      executablePath: '/usr/bin/chromium', headless: true,
      args: [...chromiumArgs, '--host-resolver-rules=MAP rebind.test 127.0.0.1'],
    });
    cleanups.push(() => rebound.close());
    const page = await rebound.newPage();
    const res = await page.goto(`http://rebind.test:${port}/api/settings`);
    const body = await res.text();
    check(res.status() === 421, `answered ${res.status()}: ${body}`);
    check(JSON.parse(body).detail.includes('rebind.test') && !body.includes('instance_name'), `a problem document, no settings: ${body}`);
    const app = await page.goto(`http://rebind.test:${port}/`);
    check(app.status() === 421, `the app itself is not served under that name (${app.status()})`);
    await rebound.close();
  });
}
