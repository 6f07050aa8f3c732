// e2e: Settings, the page shell and the script loader.
import { check, checkNoSecrets, cleanups, createHTTPServer, freePort, getJSON, ingest, recordBodies, samplePDF, startServer, test, version, waitUntil } from '../harness.mjs';

/** Runs this file's tests against server (a running lectern) in browser. */
export default async function ({ server, browser }) {
  await test('settings: a saved key shows as configured after reload and is in no response', async () => {
    const key = `sk-e2e-${Math.random().toString(36).slice(2)}`;
    const cardKey = `card-e2e-${Math.random().toString(36).slice(2)}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    const bodies = recordBodies(page);
    await page.goto(`${server.base}/#/settings`);
    await page.getByLabel('LLM URL').fill('http://10.20.30.40:4000/v1');
    await page.getByLabel('LLM API key').fill(key);
    await page.getByRole('button', { name: 'Add card key' }).click();
    await page.getByPlaceholder('card name').fill('tts');
    await page.locator('#card-key-0').fill(cardKey);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    check((await page.getByLabel('LLM API key').inputValue()) === '', 'key input emptied after save');

    await page.reload();
    await page.getByTestId('llm_api_key-configured').waitFor();
    await page.getByTestId('card-key-0-configured').waitFor();
    check((await page.getByLabel('LLM API key').inputValue()) === '', 'key input empty after reload');
    check((await page.locator('#card-key-0').inputValue()) === '', 'card key input empty after reload');
    check((await page.getByLabel('LLM URL').inputValue()) === 'http://10.20.30.40:4000/v1', 'LLM URL kept');

    const direct = JSON.stringify(await getJSON(`${server.base}/api/settings`));
    check(direct.includes('"llm_api_key":"__configured__"'), `GET /api/settings shows __configured__: ${direct}`);
    const all = [...(await bodies()), { url: 'direct GET /api/settings', body: direct }];
    check(all.some((b) => b.url.endsWith('/api/settings') && b.url.startsWith('http')), 'the page\'s settings responses were recorded');
    checkNoSecrets(all, '/api/settings', [key, cardKey]);
    console.log(`     checked ${all.length} response bodies for the keys`);
    await context.close();
  });

  await test('settings: bad URLs are refused (in the form, and by the server) and nothing is saved', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.base}/#/settings`);
    await page.getByLabel('LLM URL').fill('gopher://old.example/v1');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'http://' }).waitFor();
    // Too long for the server's schema: the problem body's message is shown.
    await page.getByLabel('LLM URL').fill(`http://long.example/${'a'.repeat(2100)}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'llm_url' }).waitFor();
    const stored = await getJSON(`${server.base}/api/settings`);
    check(stored.llm_url === 'http://10.20.30.40:4000/v1', `bad URL not stored (got ${stored.llm_url})`);
    await page.close();
  });

  await test('settings: the ear switch is on by default, and a render that does not ask follows it as it is when the render runs', async () => {
    const api = (path, init) => getJSON(`${server.base}${path}`, init);
    const page = await browser.newPage();
    await page.goto(`${server.base}/#/settings`);
    const box = page.getByTestId('settings-ear-check');
    await box.waitFor();
    check(await box.isChecked(), 'the ear is on by default');
    check((await page.locator('#ear_check_hint').innerText()).includes('CPU time'), 'the switch says what it costs');
    await box.uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.reload();
    await page.getByTestId('settings-ear-check').waitFor();
    check(!(await page.getByTestId('settings-ear-check').isChecked()), 'switched off after reload');
    check((await api('/api/settings')).ear_check === false, 'GET /api/settings says ear_check false');
    // A render that does not ask: unchecked while the switch is off.
    const voice = (await api('/api/voices?language=en-us&source=builtin&engine=espeak-ng&limit=1')).items[0];
    const render = async () => {
      const st = await api('/api/speech/renders', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: 'The harbour was quiet in the morning. Nobody spoke for a long time.', voice_id: voice.id, format: 'mp3' }) });
      return waitUntil('the render ends', () => api(`/api/speech/renders/${st.id}`), (r) => r.status === 'succeeded' || r.status === 'failed');
    };
    const off = await render();
    check(off.status === 'succeeded' && off.result.ear.status === 'off', `switched off, the render is not heard: ${JSON.stringify(off.result?.ear ?? off.error)}`);
    // Switched on again (the default the other specs run with): heard.
    await page.getByTestId('settings-ear-check').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    check((await api('/api/settings')).ear_check === true, 'GET /api/settings says ear_check true');
    const on = await render();
    const ear = on.result?.ear;
    check(on.status === 'succeeded' && ear.status === 'checked' && ear.checked === 2 && ear.worst_wer >= ear.median_wer,
      `switched on, the render is heard with a summary: ${JSON.stringify(ear ?? on.error)}`);
    await page.close();
  });

  await test('index.html assets carry ?v=VERSION', async () => {
    const res = await fetch(`${server.base}/`);
    const html = await res.text();
    check(res.ok, `GET / answered ${res.status}`);
    const refs = [...html.matchAll(/(?:(?:href|src)=|loadWithRetry\(document, )"(\.\/assets\/[^"]+)"/g)].map((m) => m[1]);
    check(refs.length >= 2, `found asset references: ${refs}`);
    for (const r of refs) check(r.endsWith(`?v=${version}`), `${r} carries ?v=${version}`);
    const page = await browser.newPage();
    await page.goto(`${server.base}/`);
    await page.locator('.version').filter({ hasText: `v${version}` }).waitFor();
    await page.close();
  });

  await test('loader: three failed script loads end in a page banner', async () => {
    const page = await browser.newPage();
    let attempts = 0;
    await page.route('**/assets/main.js*', (route) => {
      attempts++;
      return route.abort();
    });
    await page.goto(`${server.base}/`);
    await page.locator('#load-failure').waitFor();
    check(attempts === 3, `3 attempts made (got ${attempts})`);
    await page.close();
  });
}
