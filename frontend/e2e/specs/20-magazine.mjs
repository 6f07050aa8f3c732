// e2e: Magazine upload and ingest.
import { check, checkNoSecrets, cleanups, createHTTPServer, freePort, getJSON, ingest, recordBodies, samplePDF, SLOW, startServer, test, version } from '../harness.mjs';

/** Runs this file's tests against server (a running lectern) in browser. */
export default async function ({ server, browser }) {
  await test('magazine: upload shows progress, the live page and an escaped preview, then pages with region overlays', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.base}/#/magazine`);
    await page.getByText('No issues yet').waitFor();
    await page.setInputFiles('#pdf', { name: 'harbour.pdf', mimeType: 'application/pdf', buffer: samplePDF() });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByTestId('ingest-status').filter({ hasText: 'Ready' }).waitFor({ timeout: SLOW });
    check((await page.getByTestId('ingest-status').innerText()).includes('3 of 3 pages'), 'all three pages done');
    const image = page.getByTestId('live-image');
    await image.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid=live-image]');
      return img && img.complete && img.naturalWidth > 0;
    });
    const preview = page.getByTestId('live-preview');
    check((await preview.innerText()).includes('<script>alert(1)</script>'), 'the hostile note is shown as text');
    check((await page.locator('[data-testid=live-preview] script').count()) === 0, 'no script element in the preview');
    check((await preview.locator('h1, h2, h3').count()) >= 1, 'the headline is a heading in the preview');

    await page.getByRole('link', { name: 'harbour', exact: true }).click();
    await page.getByRole('link', { name: 'Page 1', exact: true }).click();
    await page.locator('svg.overlay rect').first().waitFor();
    const rects = await page.locator('svg.overlay rect').count();
    const rows = await page.locator('.region-list li').count();
    check(rects > 0 && rects === rows, `one overlay box per region (${rects} boxes, ${rows} rows)`);
    check((await page.locator('svg.overlay rect[data-kind=headline]').count()) === 1, 'the headline is outlined');
    check((await page.locator('.region-list li').first().innerText()).includes('furniture') ||
      (await page.locator('.region-list li').first().innerText()).includes('headline'), 'regions are listed in reading order');
    await page.close();
  });

  await test('magazine: a file that is not a PDF is refused with the reason, and no issue appears', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.base}/#/magazine`);
    await page.setInputFiles('#pdf', { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('plain text, not a PDF') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('alert').filter({ hasText: 'This file is not a PDF. Upload the issue as a PDF file.' }).waitFor();
    const list = await getJSON(`${server.base}/api/magazine`);
    check(list.issues.length === 1, `only the good issue is listed (got ${list.issues.length})`);
    await page.close();
  });
}
