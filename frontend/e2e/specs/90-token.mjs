// e2e: A server that asks for an access token.
import { check, checkNoSecrets, cleanups, createHTTPServer, freePort, getJSON, ingest, recordBodies, samplePDF, startServer, test, version } from '../harness.mjs';

/** Runs this file's tests against server (a running lectern) in browser. */
export default async function ({ server, browser }) {
  const token = 'e2e-token-0123456789abcdef';
  const guarded = await startServer({ LECTERN_TOKEN: token });
  await test('token: the app asks for the token, then settings load', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const bodies = recordBodies(page);
    await page.goto(`${guarded.base}/#/settings`);
    await page.getByLabel('Access token').fill(token);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Instance name').waitFor();
    check((await page.getByLabel('Instance name').inputValue()) === 'default', 'settings loaded with the token');
    const unauth = await fetch(`${guarded.base}/api/settings`);
    check(unauth.status === 401, `API without token answers 401 (got ${unauth.status})`);
    checkNoSecrets(await bodies(), '/api/settings', [token]);
    await context.close();
  });
}
