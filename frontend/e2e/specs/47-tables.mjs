// e2e: a table keeps its cells — the review workspace shows a table
// region's grid, a fixed cell is saved with the page's version, and the
// article's Markdown export shows the fix; a text edit of the table is
// refused with a problem.
import { check, getJSON, ingest, test } from '../harness.mjs';
import { makePDF } from '../pdf.mjs';

/** A page with a headline, a paragraph and a price table of four rows. */
function tablePDF() {
  const rows = [['Item', 'Cost', 'Change'], ['Labor', '$85', '+3%'], ['Parts', '$1,200', '-1.5%'], ['Paint', '$40', '0%'], ['Total', '$1,325', '+1%']];
  const xs = [72, 250, 400];
  return makePDF([{
    lines: [
      { x: 72, top: 60, size: 24, bold: true, text: 'What a Refit Costs' },
      { x: 72, top: 110, size: 10, text: 'The yard sent its prices for the spring refit of the harbour launch.' },
      ...rows.flatMap((row, r) => row.map((text, k) => ({ x: xs[k], top: 160 + r * 14, size: 9, bold: r === 0, text }))),
    ],
  }]);
}

/** Runs this file's tests against server (a running lectern) in browser. */
export default async function ({ server, browser }) {
  const issue = await ingest(server.base, 'tables.pdf', tablePDF());
  const base = `${server.base}/api/magazine/${issue.id}`;
  const json = (method, body) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  await test('tables: the review shows a table region as its grid; a fixed cell reaches the Markdown export', async () => {
    const p1 = await getJSON(`${base}/pages/1`);
    const table = p1.regions.find((r) => r.kind === 'table');
    check(table?.table?.rows?.length === 5, `a table region with five rows of cells: ${JSON.stringify(p1.regions.map((r) => [r.kind, r.text, r.table]))}`);
    const art = (await getJSON(`${base}/articles`, json('POST', { title: 'Refit', regions: p1.order.map((id) => ({ page: 1, region: id })) }))).article;
    const markdown = async () => (await getJSON(`${base}/articles/${art.id}/text?format=markdown`)).text;
    const before = await markdown();
    check(before.includes('| Item | Cost | Change |') && before.includes('| Parts | $1,200 | -1.5% |'), `markdown export before: ${before}`);

    // A text edit of a table with cells is refused: the grid would say otherwise.
    const refused = await fetch(`${base}/pages/1/regions/${table.id}`, json('PATCH', { text: 'free text' }));
    const problem = await refused.json();
    check(refused.status === 422 && /cells/.test(problem.detail), `text edit of a table: ${refused.status} ${JSON.stringify(problem)}`);

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.base}/#/magazine/${issue.id}/1`);
    const grid = page.getByTestId('table-grid');
    await grid.waitFor();
    const cell = grid.getByRole('textbox', { name: /^Row 3, column 2 of / });
    check((await cell.inputValue()) === '$1,200', `row 3, column 2 shows ${await cell.inputValue()}`);
    check((await grid.locator('tr.head').count()) === 1, 'the heading row is marked');
    await cell.fill('$1,250');
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/regions/${table.id}/table`));
    await cell.press('Tab');
    const res = await saved;
    check(res.request().headers()['if-match'] !== undefined, 'the cell edit carries the page version as If-Match');
    await page.getByTestId('review-status').filter({ hasText: 'Table saved.' }).waitFor();
    check((await grid.getByRole('textbox', { name: /^Row 3, column 2 of / }).inputValue()) === '$1,250', 'the grid shows the saved cell');
    const after = await markdown();
    check(after.includes('| Parts | $1,250 | -1.5% |') && !after.includes('$1,200'), `markdown export after: ${after}`);

    // A row added from the grid is on the server.
    await grid.getByRole('button', { name: 'Add row' }).click();
    await page.getByTestId('review-status').filter({ hasText: 'Table saved.' }).waitFor();
    const rows = (await getJSON(`${base}/pages/1`)).regions.find((r) => r.id === table.id).table.rows;
    check(rows.length === 6, `rows after Add row: ${rows.length}`);
    await context.close();
  });
}
