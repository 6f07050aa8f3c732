// e2e: Region review on an ingested issue.
import { check, checkNoSecrets, cleanups, createHTTPServer, freePort, getJSON, ingest, recordBodies, samplePDF, startServer, test, version } from '../harness.mjs';

/** Runs this file's tests against server (a running lectern) in browser. */
export default async function ({ server, browser }) {
  await test('review: select, delete and undo, rectangle select, drag, edit text without triggering shortcuts, split, order, articles', async () => {
    const issue = await ingest(server.base, 'review.pdf', samplePDF());
    const api = (path) => getJSON(`${server.base}/api/magazine/${issue.id}${path}`);
    const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await page.goto(`${server.base}/#/magazine/${issue.id}/1`);
    const rect = async (text) => {
      const r = (await api('/pages/1')).regions.find((r) => (r.text ?? '').startsWith(text));
      check(r, `page 1 has a region starting ${JSON.stringify(text)}`);
      return r;
    };
    const byline = await rect('By Ada');
    const left = await rect('Left column 1');
    const h1 = await rect('Harbour Reborn');
    const box = (id) => page.locator(`svg.overlay rect[data-id="${id}"]`);
    await box(h1.id).waitFor();
    const total = await page.locator('svg.overlay rect[data-id]').count();

    // Click, shift-click, delete both, then undo.
    await box(h1.id).click();
    await box(byline.id).click({ modifiers: ['Shift'] });
    check((await page.locator('svg.overlay rect.selected').count()) === 2, 'two regions selected');
    await page.getByRole('button', { name: 'Delete (2)' }).click();
    await page.getByTestId('review-status').filter({ hasText: 'Deleted 2 regions.' }).waitFor();
    check((await page.locator('svg.overlay rect[data-id]').count()) === total - 2, 'two boxes gone');
    check((await page.locator('svg.overlay rect.selected').count()) === 0, 'the selection followed the delete');
    await page.getByTestId('undo').click();
    await page.getByTestId('review-status').filter({ hasText: 'Undone.' }).waitFor();
    check((await page.locator('svg.overlay rect[data-id]').count()) === total, 'undo brought them back');
    check(await page.getByTestId('undo').isDisabled(), 'the Undo button is cleared after undoing');

    // Rectangle selection around the headline and byline.
    const svg = await page.locator('svg.overlay').boundingBox();
    const pt = (x, y) => [svg.x + (x * svg.width) / 612, svg.y + (y * svg.height) / 792];
    const [ax, ay] = pt(60, 45);
    const [bx, by] = pt(400, 118);
    await page.mouse.move(ax, ay);
    await page.mouse.down();
    await page.mouse.move((ax + bx) / 2, (ay + by) / 2);
    await page.mouse.move(bx, by);
    await page.mouse.up();
    check((await page.locator('svg.overlay rect.selected').count()) === 2, `rectangle selected 2 (got ${await page.locator('svg.overlay rect.selected').count()})`);

    // Drag the byline 20 points down.
    await box(byline.id).click();
    const bb = await box(byline.id).boundingBox();
    await page.mouse.move(bb.x + bb.width / 2, bb.y + bb.height / 2);
    await page.mouse.down();
    await page.mouse.move(bb.x + bb.width / 2, bb.y + bb.height / 2 + (20 * svg.height) / 792, { steps: 4 });
    await page.mouse.up();
    await page.getByTestId('review-status').filter({ hasText: 'Moved.' }).waitFor();
    const moved = await rect('By Ada');
    check(Math.abs(moved.bbox[1] - byline.bbox[1] - 20) < 2, `moved 20 pt down (${byline.bbox[1]} → ${moved.bbox[1]})`);

    // Letters typed in the editor never trigger shortcuts; Tab leaves the field.
    const editor = page.locator(`#edit-${left.id}`);
    await editor.click();
    await editor.press('Control+End');
    await editor.pressSequentially(' umoit');
    check(!(await page.getByRole('button', { name: /Save order/ }).isVisible()), 'typing o did not enter reading-order mode');
    await editor.press('Tab');
    await page.getByTestId('review-status').filter({ hasText: 'Text saved.' }).waitFor();
    check((await rect('Left column 1')).text.endsWith(' umoit'), 'the typed letters were saved as text');
    check((await page.evaluate(() => document.activeElement?.id)) !== `edit-${left.id}`, 'Tab left the edited field after the redraw');

    // Split at the cursor: the new part joins the selection.
    await editor.click();
    await editor.evaluate((el) => el.setSelectionRange(12, 12));
    await page.locator(`li[data-region="${left.id}"]`).getByRole('button', { name: 'Split at cursor' }).click();
    await page.getByTestId('review-status').filter({ hasText: 'Split at the cursor.' }).waitFor();
    check((await rect('Left column')).text === 'Left column', 'split at the cursor');

    // Reading order by clicks, then automatic again.
    await page.keyboard.press('Escape');
    await page.locator('svg.overlay').click({ position: { x: 2, y: 2 } });
    await page.getByRole('button', { name: 'Reading order', exact: true }).click();
    await box(left.id).click();
    await box(h1.id).click();
    await page.getByRole('button', { name: 'Save order (2)' }).click();
    await page.getByTestId('review-status').filter({ hasText: 'Reading order set by hand.' }).waitFor();
    let p1 = await api('/pages/1');
    check(p1.hand_ordered && p1.order[0] === left.id && p1.order[1] === h1.id, `hand order saved: ${p1.order.slice(0, 2)}`);
    await page.getByRole('button', { name: 'Automatic order' }).click();
    await page.getByTestId('review-status').filter({ hasText: 'Automatic order.' }).waitFor();
    p1 = await api('/pages/1');
    check(!p1.hand_ordered && p1.order[0] !== left.id, 'automatic order unlocked the page');

    // An article from the selection; a deleted member is left out of approval.
    await box(h1.id).click();
    await box(byline.id).click({ modifiers: ['Shift'] });
    await page.getByRole('button', { name: 'New article from selection' }).click();
    await page.getByTestId('review-status').filter({ hasText: 'Article created.' }).waitFor();
    await box(byline.id).click();
    await page.keyboard.press('Delete');
    await page.getByTestId('review-status').filter({ hasText: 'Deleted.' }).waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('review-status').filter({ hasText: 'Article approved.' }).waitFor();
    const arts = (await api('/articles')).articles;
    check(arts.length === 1 && arts[0].approved && arts[0].regions.length === 1 && arts[0].regions[0].region === h1.id, `approved with existing ids only: ${JSON.stringify(arts)}`);
    await page.close();
  });

  await test('review: re-recognize a page and re-read a region with a chosen engine; errors show the problem; undo restores', async () => {
    // A stand-in vision engine on 127.0.0.1 speaking chat completions.
    const key = `sk-vision-e2e-${Math.random().toString(36).slice(2)}`;
    let fail = false;
    let calls = 0;
    const answer = JSON.stringify({ regions: [
      { bbox: [150, 90, 900, 70], kind: 'title', text: 'Harbour Reborn <em>read again</em>' },
      { bbox: [150, 260, 480, 200], kind: 'text', text: 'The stand-in engine read this column.' },
    ] });
    const port = await freePort();
    const engine = createHTTPServer((req, res) => {
      calls++;
      req.resume();
      res.setHeader('Content-Type', 'application/json');
      if (req.url !== '/v1/chat/completions' || req.headers.authorization !== `Bearer ${key}`) {
        res.writeHead(404).end('{"error":{"message":"not here"}}');
      } else if (fail) {
        res.setHeader('Retry-After-Ms', '1');
        res.writeHead(500).end(JSON.stringify({ error: { message: `model crashed on ${req.headers.authorization}` } }));
      } else {
        res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'ocr',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer } }] }));
      }
    });
    await new Promise((r) => engine.listen(port, '127.0.0.1', r));
    cleanups.push(() => engine.close());
    await getJSON(`${server.base}/api/settings`, {
      method: 'PUT', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ vision_ocr_url: `http://127.0.0.1:${port}/v1`, engine_api_keys: { 'vision-ocr': key } }),
    });

    const issue = await ingest(server.base, 'recognize.pdf', samplePDF());
    const api = (path) => getJSON(`${server.base}/api/magazine/${issue.id}${path}`);
    const context = await browser.newContext({ viewport: { width: 1400, height: 1100 } });
    const page = await context.newPage();
    const bodies = recordBodies(page);
    await page.goto(`${server.base}/#/magazine/${issue.id}/1`);
    const status = page.getByTestId('review-status');
    await page.getByTestId('page-engine').filter({ hasText: 'PDF text layer' }).waitFor();
    const before = await api('/pages/1');

    // The whole page with the vision engine.
    await page.getByLabel('Engine to read with').selectOption('vision-primary');
    await page.getByRole('button', { name: 'Re-recognize page' }).click();
    await status.filter({ hasText: 'Page read again with Vision OCR (primary)' }).waitFor();
    await page.getByTestId('page-engine').filter({ hasText: 'Vision OCR (primary)' }).waitFor();
    let p1 = await api('/pages/1');
    check(p1.engine === 'vision-primary' && p1.version > before.version, `page engine ${p1.engine}, version ${before.version} → ${p1.version}`);
    const column = p1.regions.find((r) => r.text === 'The stand-in engine read this column.');
    check(column, `the stand-in's column is a region: ${JSON.stringify(p1.regions.map((r) => r.text))}`);
    check((await page.locator(`#edit-${column.id}`).inputValue()) === column.text, 'the new region is shown for editing');
    const head = p1.regions.find((r) => (r.text ?? '').startsWith('Harbour Reborn <em>'));
    check(head && (await page.locator(`#edit-${head.id}`).inputValue()).includes('<em>read again</em>'), 'markup in engine text is shown as text');
    check((await page.locator('.region-list em').count()) === 0, 'no element made from engine text');
    check((await page.locator('svg.overlay rect[data-id]').count()) === p1.regions.length, 'one box per new region');

    // Undo brings the text layer's regions back.
    await page.getByTestId('undo').click();
    await status.filter({ hasText: 'Undone.' }).waitFor();
    await page.getByTestId('page-engine').filter({ hasText: 'PDF text layer' }).waitFor();
    p1 = await api('/pages/1');
    check(JSON.stringify(p1.regions) === JSON.stringify(before.regions), 'undo restored the regions');

    // One region with the vision engine: its text is replaced, nothing else.
    const left = p1.regions.find((r) => (r.text ?? '').startsWith('Left column 1'));
    await page.locator(`li[data-region="${left.id}"]`).getByRole('button', { name: /^Re-read with Vision OCR \(primary\): paragraph \d+$/ }).click();
    await status.filter({ hasText: /^Paragraph \d+ read again with Vision OCR \(primary\)\.$/ }).waitFor();
    const reread = (await api('/pages/1')).regions.find((r) => r.id === left.id);
    check(reread.text.includes('The stand-in engine read this column.') && reread.original_text === left.original_text, `region re-read: ${JSON.stringify(reread)}`);
    check((await page.locator(`#edit-${left.id}`).inputValue()) === reread.text, 'the re-read text is shown');

    // A failing engine: the problem's detail is shown and nothing changes.
    // (image_url is a fresh signed URL on every read.)
    const stored = async () => JSON.stringify({ ...(await api('/pages/1')), image_url: '' });
    const unchanged = await stored();
    fail = true;
    await page.getByRole('button', { name: 'Re-recognize page' }).click();
    await page.getByRole('alert').filter({ hasText: 'nothing was changed' }).waitFor();
    check((await stored()) === unchanged, 'a failed engine changed nothing');
    fail = false;

    // The page changed elsewhere since it was shown: If-Match makes it a 409.
    const shown = await api('/pages/1');
    const edited = await fetch(`${server.base}/api/magazine/${issue.id}/pages/1/regions/${left.id}`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text: 'Edited in another tab.' }),
    });
    check(edited.ok, `edit from elsewhere answered ${edited.status}`);
    const callsBefore = calls;
    await page.getByRole('button', { name: 'Re-recognize page' }).click();
    await page.getByRole('alert').filter({ hasText: `edit was made on ${shown.version}` }).waitFor();
    check(calls === callsBefore, 'a stale page is refused before the engine is called');
    check((await api('/pages/1')).regions.find((r) => r.id === left.id).text === 'Edited in another tab.', 'the other edit stands');

    checkNoSecrets(await bodies(), '/recognize', [key]);
    await context.close();
  });
}
