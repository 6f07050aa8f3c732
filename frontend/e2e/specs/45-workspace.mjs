// e2e: the review workspace — edits land where the user looks (focus, drafts,
// a failed page load, a page changed elsewhere), every page and issue review
// operation has a button, articles by title and pages, zoom and pan, a laptop
// and a phone.
import { join } from 'node:path';
import { artifacts, check, getJSON, held, ingest, samplePDF, test, workspace } from '../harness.mjs';

const LAPTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Runs this file's tests against server (a running lectern) in browser. */
export default async function ({ server, browser }) {
  const issue = await ingest(server.base, 'workspace.pdf', samplePDF());
  const { base, api, regionOf, open, status } = workspace(server, browser, issue);
  // Waits until an element's box is the same in two animation frames in a
  // row: the page is fitted from measured sizes (ResizeObserver), which land
  // a frame after the page is drawn.
  const settled = (page, selector) => page.waitForFunction((sel) => {
    const box = document.querySelector(sel) && JSON.stringify(document.querySelector(sel).getBoundingClientRect());
    const same = box !== null && box === window.__lastBox;
    window.__lastBox = box;
    return same;
  }, selector, { polling: 'raf' });

  await test('workspace: typing goes into the field the user clicked, a reload keeps drafts, Tab leaves an edited field', async () => {
    const a = await regionOf(1, 'Left column 1');
    const b = await regionOf(1, 'Right column 1');
    const { context, page } = await open(1);
    // A slow save: the user is typing in B while A's save and the redraw
    // happen. A's save is held until B has been typed into, whatever the
    // machine's speed, and the rest of B is typed while it lands.
    const saveA = held();
    const patchOf = (id) => (r) => r.request().method() === 'PATCH' && new URL(r.url()).pathname === `/api/magazine/${issue.id}/pages/1/regions/${id}`;
    await page.route((u) => u.pathname === `/api/magazine/${issue.id}/pages/1/regions/${a.id}`, async (route) => {
      await saveA.promise;
      await route.continue();
    });
    const fieldA = page.locator(`#edit-${a.id}`);
    const fieldB = page.locator(`#edit-${b.id}`);
    await fieldA.click();
    await fieldA.press('Control+End');
    await fieldA.pressSequentially(' alpha');
    const savedA = page.waitForResponse(patchOf(a.id));
    await fieldB.click();
    await fieldB.press('Control+End');
    check((await page.locator(`svg.overlay rect[data-id="${b.id}"].focused`).count()) === 1, 'the focused field highlights its box');
    await page.getByTestId('review-busy').waitFor(); // A's save has begun
    await fieldB.pressSequentially(' be', { delay: 50 });
    saveA.release();
    await fieldB.pressSequentially('ta', { delay: 150 }); // while A's save lands and the page is redrawn
    await savedA;
    await status(page, 'Text saved.');
    check((await page.evaluate(() => document.activeElement?.id)) === `edit-${b.id}`, 'focus stayed in B after A was saved');
    check((await fieldB.inputValue()).endsWith(' beta'), `B's draft survived the reload: ${await fieldB.inputValue()}`);
    // Tab out of B: focus lands on the next control, and stays there after
    // B's save (its answer, then the redraw: the busy note goes after both).
    const savedB = page.waitForResponse(patchOf(b.id));
    await fieldB.press('Tab');
    await savedB;
    await page.waitForFunction((id) => !document.querySelector('[data-testid="review-busy"]') && document.activeElement?.id !== `edit-${id}`, b.id);
    await page.getByTestId('review-status').filter({ hasText: 'Text saved.' }).waitFor();
    const after = await page.evaluate(() => ({ id: document.activeElement?.id, cls: document.activeElement?.className, tag: document.activeElement?.tagName }));
    check(after.id !== `edit-${b.id}` && after.tag !== 'BODY', `Tab left the edited field for the next control: ${JSON.stringify(after)}`);
    const [sa, sb] = [await regionOf(1, 'Left column 1'), await regionOf(1, 'Right column 1')];
    check(sa.text === `${a.text} alpha`, `A on the server: ${JSON.stringify(sa.text)}`);
    check(sb.text === `${b.text} beta`, `B on the server: ${JSON.stringify(sb.text)}`);
    await context.close();
  });

  await test('workspace: a failed page load locks the workspace (no edit reaches the page behind it) and Retry loads it', async () => {
    const { context, page } = await open(1);
    const h1 = await regionOf(1, 'Harbour Reborn');
    const sameId = (await api('/pages/2')).regions.find((r) => r.id === h1.id);
    check(sameId, `page 2 has a region with the id ${h1.id} too`);
    await page.locator(`svg.overlay rect[data-id="${h1.id}"]`).click();
    const edits = [];
    page.on('request', (req) => req.method() !== 'GET' && req.url().includes('/api/magazine/') && edits.push(`${req.method()} ${req.url()}`));
    // Page 2's load is dropped, and the server stays out of reach (any answer
    // would bring the page back on its own) until the test lets it answer.
    let dropped = 0;
    let offline = true;
    await page.route((u) => u.pathname.startsWith('/api/'), (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === `/api/magazine/${issue.id}/pages/2`) dropped++;
      return offline || path === '/api/health' ? route.abort('connectionreset') : route.continue();
    });
    await page.getByRole('link', { name: 'Page 2 ›' }).click();
    await page.getByTestId('load-failed').waitFor();
    check(page.url().endsWith(`/${issue.id}/2`), `the URL says page 2: ${page.url()}`);
    await page.screenshot({ path: join(artifacts, 'workspace-load-failed.png') });
    check((await page.locator('svg.overlay rect[data-id]').count()) === 0, `no boxes of another page are shown (${await page.locator('svg.overlay rect[data-id]').count()}, ${await page.locator('h2').allInnerTexts()})`);
    check((await page.locator('li[data-region]').count()) === 0, 'no rows of another page are shown');
    check(!(await page.getByRole('button', { name: /^Delete/ }).isVisible()), 'no Delete button while the page is not shown');
    for (const key of ['Delete', 'm', 'i', 't']) await page.keyboard.press(key);
    // A request the page sends after the keys were handled: an edit they
    // caused would have been sent before it (no wait for a time).
    await page.evaluate(() => fetch('/api/health?after-keys').catch(() => {}));
    check(edits.length === 0, `no edit was sent: ${edits}`);
    check((await api('/pages/2')).regions.some((r) => r.id === h1.id && r.kind === sameId.kind), "page 2's region is untouched");
    offline = false;
    await page.getByTestId('load-failed').getByRole('button', { name: 'Retry', exact: true }).click();
    await page.locator('h2', { hasText: 'Page 2' }).waitFor();
    await page.locator('svg.overlay rect[data-id]').first().waitFor();
    const shown = await page.locator('textarea').evaluateAll((els) => els.map((e) => e.value));
    check(shown.some((t) => t.startsWith('Storm Season Ahead')), `Retry loaded page 2: ${shown.slice(0, 3)}`);
    check(dropped === 2, `page 2 was asked for twice (dropped, then retried by the button): ${dropped}`);
    await page.screenshot({ path: join(artifacts, 'workspace-retry-loaded.png') });
    await context.close();
  });

  await test('workspace: an edit of a page changed elsewhere is refused (If-Match), the page reloads and says so', async () => {
    const { context, page } = await open(3);
    const byline = await regionOf(3, 'By Caroline');
    const left = await regionOf(3, 'Left column 3');
    const shown = await api('/pages/3');
    const ifMatch = [];
    page.on('request', (req) => req.method() === 'DELETE' && ifMatch.push(req.headers()['if-match']));
    // Behind the app's back.
    const res = await fetch(`${base}/pages/3/regions/${left.id}`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text: 'Edited in another tab.' }),
    });
    check(res.ok, `edit from elsewhere answered ${res.status}`);
    await page.locator(`svg.overlay rect[data-id="${byline.id}"]`).click();
    await page.getByRole('button', { name: 'Delete (1)' }).click();
    await page.getByTestId('review-conflict').filter({ hasText: 'This page changed elsewhere; it has been reloaded — your change was not applied' }).waitFor();
    check(ifMatch.length === 1 && ifMatch[0] === String(shown.version), `the delete carried If-Match ${shown.version}: ${ifMatch}`);
    check((await api('/pages/3')).regions.some((r) => r.id === byline.id), 'the stale delete changed nothing on the server');
    await page.waitForFunction((id) => document.getElementById(`edit-${id}`)?.value === 'Edited in another tab.', left.id);
    await context.close();
  });

  await test('workspace: clean up, restore, fix reading order, refine figures — busy, result, and errors with details', async () => {
    const { context, page } = await open(2);
    // Restore before any cleanup: a short error, the problem on demand.
    await page.getByRole('button', { name: 'Restore layout backup' }).click();
    const err = page.getByTestId('review-error');
    await err.filter({ hasText: 'no layout backup' }).waitFor();
    await err.locator('summary').click();
    check((await err.locator('details').innerText()).includes('HTTP 404'), `details show the problem: ${await err.innerText()}`);

    // The clean-up's answer is held until its busy state has been seen.
    const cleanup = held();
    await page.route((u) => u.pathname.endsWith('/pages/2/cleanup'), async (route) => {
      await cleanup.promise;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Clean up boxes' }).click();
    await page.getByTestId('review-busy').filter({ hasText: 'Cleaning up boxes…' }).waitFor();
    check((await page.getByRole('button', { name: 'Clean up boxes' }).getAttribute('aria-busy')) === 'true', 'the button says it is busy');
    cleanup.release();
    await page.getByTestId('review-status').filter({ hasText: /^(Cleaned up \d+ box|Clean up: nothing to change)/ }).waitFor();
    check(!(await err.isVisible()), 'the earlier error is gone');
    await page.getByRole('button', { name: 'Restore layout backup' }).click();
    await status(page, 'Layout restored from the backup');

    // Fix reading order over the issue: page 1 set by hand is left alone.
    const p1 = await api('/pages/1');
    await getJSON(`${base}/pages/1/order`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ids: [...p1.order].reverse() }) });
    await page.getByRole('button', { name: 'Fix reading order (issue)' }).click();
    await page.getByTestId('review-status').filter({ hasText: /1 hand-ordered page left alone \(1\)\.$/ }).waitFor();
    check(JSON.stringify((await api('/pages/1')).order) === JSON.stringify([...p1.order].reverse()), 'the hand order of page 1 stands');

    // Refinement runs as a job: its page n of m shows while it runs (the
    // first status read says page 2 of 4, and the next is held until that
    // has been seen), then what changed.
    let reads = 0;
    const seen = held();
    await page.route((u) => u.pathname.startsWith('/api/jobs/'), async (route) => {
      if (reads++ === 0) {
        const res = await route.fetch();
        await route.fulfill({ response: res, json: { ...(await res.json()), status: 'running', progress: 0.5, message: 'refining page 2 of 4' } });
        return;
      }
      await seen.promise;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Refine figures (issue)' }).click();
    await page.getByTestId('review-busy').filter({ hasText: 'Refining figures: page 2 of 4…' }).waitFor();
    seen.release();
    await page.getByTestId('review-status').filter({ hasText: /^Figures refined: \d+ page\(s\) changed( \([\d, ]+\))?\.$/ }).waitFor();
    // A failed job says why.
    await page.unroute((u) => u.pathname.startsWith('/api/jobs/'));
    await page.route((u) => u.pathname.startsWith('/api/jobs/'), async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...(await res.json()), status: 'failed', error: 'page 3: the render is unreadable' } });
    });
    await page.getByRole('button', { name: 'Refine figures (issue)' }).click();
    await err.filter({ hasText: 'Refining figures failed: page 3: the render is unreadable' }).waitFor();
    await context.close();
  });

  await test('workspace: articles by title and pages, members by kind and place; rename, reorder, remove, approve, delete', async () => {
    const { context, page } = await open(1);
    const h1 = await regionOf(1, 'Harbour Reborn');
    const by1 = await regionOf(1, 'By Ada');
    await page.locator(`svg.overlay rect[data-id="${h1.id}"]`).click();
    await page.locator(`svg.overlay rect[data-id="${by1.id}"]`).click({ modifiers: ['Shift'] });
    await page.getByRole('button', { name: 'New article from selection' }).click();
    await status(page, 'Article created.');
    // Fix reading order (above) proposed the issue's articles again: the new one is the untitled one.
    const made = page.locator('[data-article]').filter({ has: page.getByTestId('article-heading').filter({ hasText: /^Article \d+ · / }) });
    const art = page.locator(`[data-article="${await made.first().getAttribute('data-article')}"]`);
    const heading = art.getByTestId('article-heading');
    check(/^Article \d+ · p\. 1$/.test(await heading.innerText()), `heading: ${await heading.innerText()}`);
    const members = () => art.locator('.members li > span').allInnerTexts();
    check(JSON.stringify(await members()) === JSON.stringify(['headline 1 on p. 1', 'byline 1 on p. 1']), `members: ${await members()}`);

    // A region of page 2 joins it.
    await page.getByRole('link', { name: 'Page 2 ›' }).click();
    await page.locator('h2', { hasText: 'Page 2' }).waitFor();
    const h2 = await regionOf(2, 'Storm Season');
    await page.locator(`svg.overlay rect[data-id="${h2.id}"]`).click();
    await art.getByRole('button', { name: 'Add selection' }).click();
    await status(page, 'Added to the article.');
    await heading.filter({ hasText: / · pp\. 1–2$/ }).waitFor();
    check((await members()).at(-1) === 'headline 1 on p. 2', `members: ${await members()}`);
    check(!(await art.innerText()).includes(h1.id), 'no internal id is shown');

    await art.getByRole('button', { name: 'Move headline 1 on p. 2 up' }).click();
    await status(page, 'Article order changed.');
    await art.getByRole('button', { name: 'Remove byline 1 on p. 1 from the article' }).click();
    await status(page, 'Removed from the article.');
    const artId = await art.getAttribute('data-article');
    let stored = (await api('/articles')).articles.find((x) => x.id === artId);
    check(JSON.stringify(stored.regions) === JSON.stringify([{ page: 1, region: h1.id }, { page: 2, region: h2.id }]), `stored: ${JSON.stringify(stored.regions)}`);

    await art.getByRole('button', { name: 'Rename' }).click();
    await art.getByLabel('Article title').fill('Harbour story');
    await art.getByRole('button', { name: 'Save' }).click();
    await status(page, 'Article renamed.');
    check((await heading.innerText()) === 'Harbour story · pp. 1–2', `renamed: ${await heading.innerText()}`);

    await art.getByRole('button', { name: 'Approve' }).click();
    await status(page, 'Article approved.');
    await art.locator('.badge', { hasText: 'approved' }).waitFor();

    // Delete asks first: dismissing keeps it, accepting deletes it.
    page.once('dialog', (d) => d.dismiss());
    await art.getByRole('button', { name: 'Delete article' }).click();
    check((await api('/articles')).articles.some((x) => x.title === 'Harbour story'), 'dismissing the confirmation kept the article');
    page.once('dialog', (d) => d.accept());
    await page.locator('[data-article]', { hasText: 'Harbour story' }).getByRole('button', { name: 'Delete article' }).click();
    await status(page, 'Article deleted.');
    stored = (await api('/articles')).articles;
    check(!stored.some((x) => x.title === 'Harbour story'), `deleted: ${JSON.stringify(stored)}`);
    await context.close();
  });

  await test('workspace at 1440×900: toolbar and page in view, zoom and pan, selection follows between page and list, labels by kind', async () => {
    const { context, page } = await open(1);
    const inView = (b) => b && b.x >= 0 && b.y >= 0 && b.x + b.width <= LAPTOP.width + 0.5 && b.y + b.height <= LAPTOP.height + 0.5;
    const toolbar = page.getByRole('toolbar', { name: 'Review tools' });
    const image = page.getByRole('img', { name: 'Page 1' });
    await image.waitFor();
    await settled(page, '[data-testid=stage]');
    check(inView(await toolbar.boundingBox()), `toolbar in view: ${JSON.stringify(await toolbar.boundingBox())}`);
    check(inView(await image.boundingBox()), `page image in view: ${JSON.stringify(await image.boundingBox())}`);
    await page.screenshot({ path: join(artifacts, 'workspace-1440x900.png') });
    await page.evaluate(() => scrollTo(0, 10000));
    check(inView(await toolbar.boundingBox()), 'the toolbar stays in view when the window scrolls');
    await page.evaluate(() => scrollTo(0, 0));

    // Labels name kind and place, never the id.
    const kinds = await page.locator('li[data-region] button.kind').allInnerTexts();
    check(kinds.length > 5 && kinds.every((k) => /^[a-z-]+ \d+$/.test(k.trim())), `row labels: ${kinds.slice(0, 5)}`);
    const ids = await page.locator('li[data-region]').evaluateAll((els) => els.map((e) => e.dataset.region));
    const aria = await page.locator('li[data-region] textarea').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    check(aria.every((l) => /^Text of [a-z-]+ \d+$/.test(l) && !ids.some((id) => l.endsWith(` ${id}`))), `aria-labels: ${aria.slice(0, 3)}`);

    // Selecting a box low on the page scrolls its row into the list's view and marks it.
    const last = ids.at(-1);
    const list = page.getByRole('list', { name: 'Regions in reading order' });
    await page.locator(`svg.overlay rect[data-id="${last}"]`).click();
    const row = page.locator(`li[data-region="${last}"]`);
    await settled(page, `li[data-region="${last}"]`);
    const [lb, rb] = [await list.boundingBox(), await row.boundingBox()];
    check(rb.y >= lb.y - 1 && rb.y + Math.min(rb.height, 40) <= lb.y + lb.height + 1, `the selected row is in the list's view: row ${JSON.stringify(rb)}, list ${JSON.stringify(lb)}`);
    const bg = await row.evaluate((el) => getComputedStyle(el).backgroundColor);
    check(bg !== 'rgba(0, 0, 0, 0)' && (await row.getAttribute('aria-current')) === 'true', `the selected row is highlighted: ${bg}`);

    // Zoom: keys, buttons, ctrl+wheel at the pointer; pan with space-drag and the middle button.
    const zoomLevel = page.getByTestId('zoom-level');
    await page.locator('h2').click();
    await page.keyboard.press('+');
    check((await zoomLevel.innerText()) === '125%', `+ zooms in: ${await zoomLevel.innerText()}`);
    await page.keyboard.press('0');
    check((await zoomLevel.innerText()) === '100%', '0 fits the page again');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom out' }).click();
    check((await zoomLevel.innerText()) === '100%', 'the buttons zoom in and out');

    const h1 = await regionOf(1, 'Harbour Reborn');
    const box = page.locator(`svg.overlay rect[data-id="${h1.id}"]`);
    const before = await box.boundingBox();
    const [cx, cy] = [before.x + before.width / 2, before.y + before.height / 2];
    await page.getByTestId('stage').evaluate((el, [x, y]) => el.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, ctrlKey: true, clientX: x, clientY: y, bubbles: true, cancelable: true })), [cx, cy]);
    const z = Number((await zoomLevel.innerText()).replace('%', '')) / 100;
    const zoomed = await box.boundingBox();
    check(z > 2 && Math.abs(zoomed.width - before.width * z) < 2, `ctrl+wheel zoomed ×${z}: ${before.width} → ${zoomed.width}`);
    check(Math.abs(zoomed.x + zoomed.width / 2 - cx) < 2 && Math.abs(zoomed.y + zoomed.height / 2 - cy) < 2, 'the spot under the pointer stayed under it');

    const stage = await page.getByTestId('stage').boundingBox();
    const [sx, sy] = [stage.x + stage.width / 2, stage.y + stage.height / 2];
    await page.locator('h2').click();
    await page.keyboard.down('Space');
    await page.mouse.move(sx, sy);
    await page.mouse.down();
    await page.mouse.move(sx + 40, sy + 30, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.up('Space');
    const panned = await box.boundingBox();
    check(Math.abs(panned.x - zoomed.x - 40) < 2 && Math.abs(panned.y - zoomed.y - 30) < 2, `space-drag panned by (40, 30): ${zoomed.x},${zoomed.y} → ${panned.x},${panned.y}`);
    check((await page.locator('svg.overlay rect.selected').count()) === 1, 'panning did not change the selection');
    await page.mouse.move(sx, sy);
    await page.mouse.down({ button: 'middle' });
    await page.mouse.move(sx - 20, sy - 10, { steps: 3 });
    await page.mouse.up({ button: 'middle' });
    const middle = await box.boundingBox();
    check(Math.abs(middle.x - panned.x + 20) < 2 && Math.abs(middle.y - panned.y + 10) < 2, `middle-drag panned by (-20, -10): ${panned.x} → ${middle.x}`);
    await page.screenshot({ path: join(artifacts, 'workspace-1440x900-zoomed.png') });
    await context.close();
  });

  await test('workspace at 390×844: the list is below the page and every review action is reachable', async () => {
    const { context, page } = await open(1, PHONE);
    const stage = await page.getByTestId('stage').boundingBox();
    const list = await page.getByRole('list', { name: 'Regions in reading order' }).boundingBox();
    check(stage.width <= PHONE.width && list.y >= stage.y + stage.height - 1, `list below the page: stage ${JSON.stringify(stage)}, list ${JSON.stringify(list)}`);
    await page.screenshot({ path: join(artifacts, 'workspace-390x844.png') });
    // A selection makes the selection tools usable.
    await page.locator('svg.overlay rect[data-id]').first().click();
    const controls = page.getByRole('toolbar', { name: 'Review tools' }).locator('button, select');
    const n = await controls.count();
    check(n >= 15, `toolbar controls: ${n}`);
    for (let i = 0; i < n; i++) {
      const c = controls.nth(i);
      await c.scrollIntoViewIfNeeded();
      const b = await c.boundingBox();
      const name = (await c.getAttribute('aria-label')) ?? (await c.innerText());
      check(b && b.x >= 0 && b.x + b.width <= PHONE.width && b.y >= 0 && b.y + b.height <= PHONE.height, `${name} is on screen: ${JSON.stringify(b)}`);
      const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('button, select')?.outerHTML.slice(0, 60), [b.x + b.width / 2, b.y + b.height / 2]);
      check(hit === (await c.evaluate((el) => el.outerHTML.slice(0, 60))), `${name} is not covered (found ${hit})`);
      if (await c.isEnabled()) await c.click({ trial: true });
    }
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: join(artifacts, 'workspace-390x844-full.png'), fullPage: true });
    await context.close();
  });
}
