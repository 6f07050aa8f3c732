// e2e: an uploaded multi-article issue is proposed as articles titled by
// their headlines, and the whole issue plays without building or approving
// anything, a chapter per article in print order.
import { SLOW, check, getJSON, samplePDF, test, waitUntil } from '../harness.mjs';

const heads = ['Harbour Reborn', 'Storm Season Ahead', 'The Lighthouse Keepers'];

export default async function ({ server, browser }) {
  for (const width of [1440, 375]) {
    await test(`issue listen (${width} px): proposals carry the headlines and authors; Listen to this issue plays them in order as chapters; a proposal is dissolved, split and merged`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${server.base}/#/magazine`);
      const name = `listen-${width}.pdf`;
      await page.setInputFiles('#pdf', { name, mimeType: 'application/pdf', buffer: samplePDF() });
      await page.getByRole('button', { name: 'Upload' }).click();
      const issue = await waitUntil('the issue is ready', async () => {
        const list = await getJSON(`${server.base}/api/magazine`);
        return list.issues.find((i) => i.title.includes(`listen-${width}`) && i.status === 'ready');
      });
      const api = (path, init) => getJSON(`${server.base}/api/magazine/${issue.id}${path}`, init);
      await page.goto(`${server.base}/#/magazine/${issue.id}`);
      const rows = page.locator('.articles-list li[data-article]');
      await page.getByTestId('proposed').nth(2).waitFor({ timeout: SLOW });
      const titles = await rows.getByTestId('read-article').allInnerTexts();
      check(JSON.stringify(titles) === JSON.stringify(heads), `proposals titled by the headlines in print order: ${JSON.stringify(titles)}`);
      check((await rows.nth(0).innerText()).includes('by Ada Lovelace'), 'the author comes from the byline');
      const { articles } = await api('/articles');
      for (const a of articles) {
        const { text } = await api(`/articles/${a.id}/text`);
        check(!text.includes('THE HARBOUR GAZETTE') && !/Page \d/.test(text), `running head and page number stay out of ${a.title}: ${text.slice(0, 80)}`);
        check(text.includes('Left column') && text.includes('Right column'), `${a.title} holds its columns`);
      }

      // Listen to the whole issue: one render, a chapter per article in order.
      const started = page.waitForResponse((r) => r.url().endsWith(`/api/magazine/${issue.id}/listen`) && r.request().method() === 'POST');
      await page.getByTestId('listen-issue').click();
      const render = (await (await started).json()).id;
      check(render, 'the issue render started');
      await page.locator('[data-testid=player][data-kind=issue]').waitFor({ timeout: SLOW });
      const done = await waitUntil('the issue render finished', async () => {
        const s = await getJSON(`${server.base}/api/speech/renders/${render}`);
        return s.status === 'succeeded' ? s : s.status === 'failed' ? Promise.reject(new Error(s.error)) : null;
      }, Boolean, { timeout: 4 * SLOW }); // the first render loads the default (neural) voice on a busy machine
      const chapters = done.timings.chapters.map((c) => c.title);
      check(JSON.stringify(chapters) === JSON.stringify(heads), `the chapters are the articles in print order: ${JSON.stringify(chapters)}`);
      const first = done.timings.chapters[0].sentences[0].text;
      check(first.startsWith('Harbour Reborn'), `the first article's title is read first: ${first}`);

      // Dissolve the last proposal, split the second at its first column, merge it back, accept the first.
      const row = (title) => rows.filter({ has: page.getByTestId('read-article').getByText(title, { exact: true }) });
      await row(heads[2]).getByTestId('dissolve-proposal').click();
      await page.getByRole('status').filter({ hasText: 'Proposal dissolved.' }).waitFor();
      check((await rows.count()) === 2, 'the dissolved proposal is gone');
      const second = articles.find((a) => a.title === heads[1]);
      const cut = second.regions[2];
      // The split control names a region by its kind and first words, not its place.
      const cutRegion = (await api(`/pages/${cut.page}`)).regions.find((r) => r.id === cut.region);
      const firstWords = cutRegion.text.replace(/\s+/g, ' ').trim().split(' ').slice(0, 2).join(' ');
      const option = row(heads[1]).getByTestId('split-at').locator(`option[value="${cut.page}|${cut.region}"]`);
      await waitUntil('the split option names its region', async () => {
        const label = await option.textContent();
        return label.includes(`${cutRegion.kind}: “${firstWords}`) ? label : null;
      }, Boolean, { timeout: SLOW }).catch(async (e) => { throw new Error(`${e.message}: ${await option.textContent()} (want ${cutRegion.kind}: “${firstWords}…)`); });
      await row(heads[1]).getByTestId('split-at').selectOption(`${cut.page}|${cut.region}`);
      await row(heads[1]).getByTestId('split-proposal').click();
      await page.getByRole('status').filter({ hasText: 'Proposal split.' }).waitFor();
      check((await rows.count()) === 3, 'the split made a third proposal');
      await row(heads[1]).getByTestId('merge-proposal').click();
      await page.getByRole('status').filter({ hasText: 'Proposals merged.' }).waitFor();
      const merged = (await api('/articles')).articles.find((a) => a.title === heads[1]);
      check(JSON.stringify(merged.regions) === JSON.stringify(second.regions), 'merging the split parts restores the proposal');
      await row(heads[0]).getByTestId('accept-proposal').click();
      await page.getByRole('status').filter({ hasText: 'Proposal accepted and approved.' }).waitFor();
      const accepted = (await api('/articles')).articles.find((a) => a.title === heads[0]);
      check(accepted.approved && !accepted.proposed, `accepting approves the proposal: ${JSON.stringify(accepted)}`);
      await page.close();
    });
  }
}
