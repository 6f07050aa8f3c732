// e2e: the review workspace by keyboard and zoom — arrow keys move and
// resize the selected box (saved once, kept over a reload), Ctrl+Z undoes
// and Ctrl+Shift+Z / Ctrl+Y redo, reading-order numbers on the page, the
// toolbar's named groups, and a zoomed page drawn again at its resolution.
import { join } from 'node:path';
import { artifacts, check, ingest, samplePDF, test, waitUntil, workspace } from '../harness.mjs';

const PHONE = { width: 375, height: 812 };

export default async function ({ server, browser }) {
  const issue = await ingest(server.base, 'keys.pdf', samplePDF());
  const { api, regionOf, open, status } = workspace(server, browser, issue);
  const same = (a, b) => a.every((v, i) => Math.abs(v - b[i]) < 0.01);

  await test('workspace keys: arrows move the selected box, Shift+arrows resize it, one save each, kept over a reload', async () => {
    const r = await regionOf(1, 'Left column 1');
    const { context, page } = await open(1);
    // A player elsewhere on the page listens for arrows on the window: it
    // must not hear the ones that move a box.
    await page.evaluate(() => {
      window.__playerHeard = 0;
      addEventListener('keydown', (e) => e.key.startsWith('Arrow') && window.__playerHeard++);
    });
    const patches = [];
    page.on('request', (q) => q.method() === 'PATCH' && q.url().includes(`/regions/${r.id}`) && patches.push(q));
    await page.locator(`.region-list li[data-region="${r.id}"] button.kind`).click();
    const scrollBefore = await page.evaluate(() => scrollY);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Alt+ArrowRight');
    await status(page, 'Moved.');
    check(patches.length === 1, `four presses were saved once (${patches.length} PATCH)`);
    check(patches[0].headers()['if-match'], 'the save carries the page version as If-Match');
    const moved = (await regionOf(1, 'Left column 1')).bbox;
    const want = [r.bbox[0] + 12, r.bbox[1] + 1, r.bbox[2], r.bbox[3]];
    check(same(moved, want), `moved by (12, 1) points: ${JSON.stringify(r.bbox)} → ${JSON.stringify(moved)}`);
    check((await page.evaluate(() => window.__playerHeard)) === 0, 'the page-wide arrow listener heard none of them');
    check((await page.evaluate(() => scrollY)) === scrollBefore, 'the arrows did not scroll the page');

    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+Alt+ArrowDown');
    await status(page, 'Resized.');
    const resized = (await regionOf(1, 'Left column 1')).bbox;
    check(same(resized, [want[0], want[1], want[2] + 1, want[3] + 11]), `resized by (1, 11): ${JSON.stringify(resized)}`);

    // In a text field the arrows move the caret, not the box (a nudge shows on the overlay at once).
    const field = page.locator(`#edit-${r.id}`);
    const rect = page.locator(`svg.overlay rect[data-id="${r.id}"]`);
    const drawn = () => rect.evaluate((el) => ['x', 'y', 'width', 'height'].map((a) => Number(el.getAttribute(a))));
    await field.click();
    await field.press('End');
    const caret = await field.evaluate((el) => el.selectionStart);
    await page.keyboard.press('ArrowLeft');
    check((await field.evaluate((el) => el.selectionStart)) === caret - 1, 'the arrow moved the caret');
    check(same(await drawn(), resized), 'arrows in the text field left the box alone');

    await page.reload();
    await rect.waitFor();
    const shown = await drawn();
    check(same(shown, resized), `after a reload the box is where it was moved: ${JSON.stringify(shown)}`);
    await context.close();
  });

  await test('workspace keys: Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo, the Redo button follows', async () => {
    const r = await regionOf(1, 'Right column 1');
    const { context, page } = await open(1);
    const redo = page.getByTestId('redo');
    check(await redo.isDisabled(), 'nothing to redo at first');
    await page.locator(`.region-list li[data-region="${r.id}"] button.kind`).click();
    await page.keyboard.press('ArrowUp');
    await status(page, 'Moved.');
    const moved = (await regionOf(1, 'Right column 1')).bbox;
    check(same(moved, [r.bbox[0], r.bbox[1] - 1, r.bbox[2], r.bbox[3]]), `moved up: ${JSON.stringify(moved)}`);

    await page.keyboard.press('Control+z');
    await status(page, 'Undone.');
    check(same((await regionOf(1, 'Right column 1')).bbox, r.bbox), 'Ctrl+Z put the box back on the server');
    check(await redo.isEnabled(), 'Redo is offered after an undo');

    await page.keyboard.press('Control+Shift+Z');
    await status(page, 'Redone.');
    check(same((await regionOf(1, 'Right column 1')).bbox, moved), 'Ctrl+Shift+Z moved it again');
    check(await redo.isDisabled(), 'nothing left to redo');

    await page.keyboard.press('Control+z');
    await status(page, 'Undone.');
    await page.keyboard.press('Control+y');
    await status(page, 'Redone.');
    check(same((await regionOf(1, 'Right column 1')).bbox, moved), 'Ctrl+Y redoes too');

    // A delete, undone and redone with the buttons.
    await page.locator(`.region-list li[data-region="${r.id}"] button.kind`).click();
    await page.getByRole('button', { name: 'Delete (1)' }).click();
    await status(page, 'Deleted.');
    await page.getByTestId('undo').click();
    await status(page, 'Undone.');
    check((await api('/pages/1')).regions.some((g) => g.id === r.id), 'the deleted region is back');
    await redo.click();
    await status(page, 'Redone.');
    check(!(await api('/pages/1')).regions.some((g) => g.id === r.id), 'Redo deleted it again');
    // A new edit empties the redo stack.
    await page.getByTestId('undo').click();
    await status(page, 'Undone.');
    await page.getByRole('button', { name: 'Automatic order' }).click();
    await status(page, 'Automatic order.');
    check(await redo.isDisabled(), 'a new edit leaves nothing to redo');
    await context.close();
  });

  await test('workspace: reading-order numbers on the page, toolbar groups named on screen', async () => {
    const { context, page } = await open(1);
    const order = (await api('/pages/1')).order ?? [];
    const badges = await page.locator('svg.overlay text.order-num').evaluateAll((els) => els.map((el) => [el.getAttribute('data-for'), el.textContent]));
    check(badges.length === order.length && badges.length > 3, `one number per region (${badges.length} of ${order.length})`);
    check(badges.every(([id, n]) => order.indexOf(id) + 1 === Number(n)), `each number is the region's place in the reading order: ${JSON.stringify(badges.slice(0, 4))}`);
    // The number sits at the box's top-left corner.
    const [firstId] = badges[0];
    const [bx, tx] = await Promise.all([
      page.locator(`svg.overlay rect[data-id="${firstId}"]`).boundingBox(),
      page.locator(`svg.overlay text.order-num[data-for="${firstId}"]`).boundingBox(),
    ]);
    check(tx.x >= bx.x - 3 && tx.x < bx.x + 20 && tx.y >= bx.y - 3 && tx.y < bx.y + 20, `the number is at the box's corner: box ${JSON.stringify(bx)}, number ${JSON.stringify(tx)}`);
    for (const name of ['Select', 'Region', 'Order', 'Page']) {
      const group = page.getByRole('group', { name, exact: true });
      check(await group.isVisible(), `the ${name} group is named`);
      check((await group.locator('.group-label').innerText()).trim().toLowerCase() === name.toLowerCase(), `its name is on screen: ${name}`);
    }
    check(await page.getByRole('group', { name: 'Select', exact: true }).getByRole('button', { name: 'Redo' }).isVisible(), 'Redo sits with Undo');
    await page.screenshot({ path: join(artifacts, 'workspace-keys-1440x900.png') });
    await context.close();

    const phone = await open(1, PHONE);
    check((await phone.page.locator('svg.overlay text.order-num').count()) === badges.length, 'the numbers show on a phone too');
    for (const name of ['Select', 'Region', 'Order', 'Page']) check(await phone.page.getByRole('group', { name, exact: true }).locator('.group-label').isVisible(), `${name} named at 375 px`);
    await phone.page.screenshot({ path: join(artifacts, 'workspace-keys-375.png'), fullPage: true });
    await phone.context.close();
  });

  await test('workspace: a zoomed page is drawn again at the zoom\'s resolution', async () => {
    const { context, page } = await open(1);
    const views = [];
    page.on('response', (r) => new URL(r.url()).pathname === `/api/magazine/${issue.id}/pages/1/view` && views.push(r));
    await page.locator('h2').click();
    for (let i = 0; i < 6; i++) await page.keyboard.press('+');
    const zoom = Number((await page.getByTestId('zoom-level').innerText()).replace('%', ''));
    check(zoom > 300, `zoomed to ${zoom}%`);
    const sharp = page.getByTestId('sharp-view');
    await sharp.waitFor();
    await waitUntil('the sharp drawing loaded', () => sharp.evaluate((img) => img.complete && img.naturalWidth > 0));
    check(views.length >= 1 && views.every((r) => r.status() === 200), `the view route answered: ${views.map((r) => r.status())}`);
    const q = new URL(views.at(-1).url()).searchParams;
    const dpi = Number(q.get('dpi'));
    const p1 = await api('/pages/1');
    check(dpi > p1.dpi, `drawn at ${dpi} DPI, finer than the page render's ${p1.dpi}`);
    const [w, natural] = [Number(q.get('w')), await sharp.evaluate((img) => img.naturalWidth)];
    check(Math.abs(natural - Math.ceil((w * dpi) / 72)) <= 1, `the drawing has the pixels asked for: ${natural} for ${w} points at ${dpi} DPI`);
    check(Number(q.get('w')) < p1.width && Number(q.get('h')) < p1.height, `only part of the page is drawn: ${q}`);
    // The drawing lies where that part of the page is shown.
    // The zoomed page (the overlay, scaled with it) is the measure: its width is the page's.
    const [img, shown] = [await sharp.boundingBox(), await page.locator('svg.overlay').boundingBox()];
    const px = shown.width / p1.width;
    const x = Number(q.get('x'));
    check(Math.abs(img.width - w * px) < 1.5, `the drawing is shown at the zoom's scale: ${img.width} px for ${w} points (${px} px a point)`);
    check(Math.abs(img.x - (shown.x + x * px)) < 1.5, `the drawing lies over its part of the page: at ${img.x}, want ${shown.x + x * px}`);
    await page.screenshot({ path: join(artifacts, 'workspace-sharp-zoom.png') });
    await context.close();
  });
}
