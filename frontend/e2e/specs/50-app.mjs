// e2e: the app around the review page: the connection banner, uploads that
// outlive navigation, the live issue list, issue and article management, and
// engine card management.
import { check, getJSON, ingest, samplePDF, SLOW, startServer, test } from '../harness.mjs';

/** Runs this file's tests against server (a running lectern) in browser. */
export default async function ({ browser }) {
  // A server of its own: these tests rename and delete issues and cards.
  const server = await startServer();
  const api = (path, init) => getJSON(`${server.base}${path}`, init);
  const json = (method, body) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  await test('app: one banner while the server is unreachable, then it retries on its own and the view reloads', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/#/engines`);
    await page.getByRole('heading', { name: 'Add a card' }).waitFor();
    // Every API call now gets no answer, as when the server is down.
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.goto(`${server.base}/#/settings`);
    await page.goto(`${server.base}/#/engines`);
    await page.getByTestId('offline-banner').waitFor();
    check((await page.getByTestId('offline-banner').count()) === 1, 'one banner');
    await page.getByTestId('engines-error').waitFor();
    check(!(await page.getByText('No engine cards yet').isVisible()), 'a failed load never says there are no cards');
    // The details of the failure are there on demand, hidden until asked.
    const details = page.getByTestId('engines-error').locator('details');
    check(!(await details.getAttribute('open')), 'details start closed');
    await details.locator('summary').click();
    check((await details.innerText()).includes('no answer from the server'), 'the details say what happened');

    await page.unroute('**/api/**');
    // No click: the banner's own retry finds the server and the list loads
    // (its probes back off up to 15 s apart: how many were made depends on
    // the machine's speed).
    await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 60000 });
    await page.getByText('No engine cards yet').waitFor();
    check((await page.getByTestId('engines-error').count()) === 0, 'the error goes once the list loads');
    await context.close();
  });

  await test('app: an upload keeps its progress across navigation, and the issue list updates live', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/#/magazine`);
    // Hold the upload's answer so it is still running while the user navigates.
    let release;
    const held = new Promise((r) => (release = r));
    await page.route('**/api/magazine', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await page.getByLabel('Magazine PDF').setInputFiles({ name: 'travel.pdf', mimeType: 'application/pdf', buffer: samplePDF() });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('region', { name: 'Upload of travel.pdf' }).waitFor();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Instance name').waitFor();
    await page.getByTestId('header-upload').waitFor();
    release();
    await page.getByRole('link', { name: 'Magazine' }).click();
    // Back on the section: the same upload, now ingesting, then ready.
    await page.getByRole('region', { name: 'Ingest progress' }).getByText('Open the issue →').waitFor({ timeout: SLOW });
    const row = page.locator('.issue-list li', { hasText: 'travel' });
    await row.getByTestId('issue-status').filter({ hasText: 'ready' }).waitFor();
    check((await page.getByTestId('header-upload').count()) === 0, 'the header indicator goes when the upload is done');

    // An issue ingested elsewhere (here: the API) appears without a reload
    // (the list asks every 5 s when nothing is being ingested).
    const other = await ingest(server.base, 'elsewhere.pdf', samplePDF());
    await page.locator(`.issue-list li[data-issue="${other.id}"]`).getByTestId('issue-status').filter({ hasText: 'ready' }).waitFor({ timeout: 60000 });
    await context.close();
  });

  await test('app: rename and delete an issue; list its articles (changed since approval shown), rename and delete them', async () => {
    const issue = await ingest(server.base, 'manage.pdf', samplePDF());
    const first = (await api(`/api/magazine/${issue.id}/pages/1`)).regions[0];
    const art = await api(`/api/magazine/${issue.id}/articles`, json('POST', { title: 'Harbour lights', regions: [{ page: 1, region: first.id }] }));
    const artID = art.article?.id ?? art.id;
    // Approved, then one of its regions is edited: the list says so.
    await api(`/api/magazine/${issue.id}/articles/${artID}/approve`, json('POST', { regions: [{ page: 1, region: first.id }], images: [] }));
    await api(`/api/magazine/${issue.id}/pages/1/regions/${first.id}`, json('PATCH', { text: 'Edited after approval.' }));
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/#/magazine/${issue.id}`);

    const row = page.locator(`[data-article="${artID}"]`);
    await row.getByText('Harbour lights').waitFor();
    await row.getByText('changed since approval').waitFor();
    check((await row.innerText()).includes('p. 1'), `the article shows its pages: ${await row.innerText()}`);
    page.once('dialog', (d) => d.accept('Harbour lights at dusk'));
    await row.getByRole('button', { name: 'Rename' }).click();
    await row.getByText('Harbour lights at dusk').waitFor();
    check((await api(`/api/magazine/${issue.id}/articles`)).articles[0].title === 'Harbour lights at dusk', 'the article is renamed on the server');

    page.once('dialog', (d) => d.dismiss());
    await row.getByRole('button', { name: 'Delete' }).click();
    check((await api(`/api/magazine/${issue.id}/articles`)).articles.length === 1, 'a dismissed confirmation deletes nothing');
    page.once('dialog', (d) => d.accept());
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    check(((await api(`/api/magazine/${issue.id}/articles`)).articles ?? []).length === 0, 'the article is deleted on the server');

    await page.getByRole('button', { name: 'Rename' }).first().click();
    await page.getByLabel('Issue title').fill('  Spring issue  ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Spring issue' }).waitFor();
    check((await api(`/api/magazine/${issue.id}`)).title === 'Spring issue', 'the issue is renamed on the server, trimmed');

    page.once('dialog', (d) => d.dismiss());
    await page.getByRole('button', { name: 'Delete issue' }).click();
    check((await fetch(`${server.base}/api/magazine/${issue.id}`)).status === 200, 'a dismissed confirmation keeps the issue');
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Delete issue' }).click();
    await page.waitForURL(/#\/magazine$/);
    check((await fetch(`${server.base}/api/magazine/${issue.id}`)).status === 404, 'the issue is gone on the server');
    await page.getByRole('heading', { name: 'Issues' }).waitFor();
    await page.locator('.issue-list li').first().waitFor();
    check((await page.locator(`.issue-list li[data-issue="${issue.id}"]`).count()) === 0, 'and from the list');
    await context.close();
  });

  await test('engines: edit a card, confirm before delete, and see which card is the active LLM', async () => {
    await api('/api/engines/alpha', json('PUT', { kind: 'llm', base_url: 'http://127.0.0.1:9/' }));
    await api('/api/engines/beta', json('PUT', { kind: 'llm', base_url: 'http://127.0.0.1:10/' }));
    await api('/api/settings', json('PUT', { llm_url: 'http://127.0.0.1:10/v1' }));
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/#/engines`);
    await page.getByTestId('active-llm-beta').waitFor();
    check((await page.getByTestId('active-llm-alpha').count()) === 0, 'only the card the LLM URL points at is marked');

    const alpha = page.getByRole('listitem', { name: 'Engine alpha' });
    await alpha.getByRole('button', { name: 'Edit' }).click();
    await alpha.getByLabel('Base URL').fill('http://127.0.0.1:11/');
    await alpha.getByLabel('Model name').fill('qwen3-8b');
    await alpha.getByRole('button', { name: 'Save card' }).click();
    await page.getByTestId('result-alpha').filter({ hasText: 'Card saved.' }).waitFor();
    const saved = (await api('/api/engines')).cards.find((c) => c.name === 'alpha');
    check(saved.base_url === 'http://127.0.0.1:11/' && saved.model === 'qwen3-8b', `the edit is saved: ${JSON.stringify(saved)}`);

    page.once('dialog', (d) => d.dismiss());
    await alpha.getByRole('button', { name: 'Delete' }).click();
    check((await api('/api/engines')).cards.some((c) => c.name === 'alpha'), 'a dismissed confirmation keeps the card');
    page.once('dialog', (d) => d.accept());
    await alpha.getByRole('button', { name: 'Delete' }).click();
    await alpha.waitFor({ state: 'detached' });
    check(!(await api('/api/engines')).cards.some((c) => c.name === 'alpha'), 'the card is deleted');
    await context.close();
  });
}
