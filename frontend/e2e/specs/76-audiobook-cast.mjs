// e2e: editing a book's cast in the Audiobook section, on the server the
// run shares. A short constructed novel (e2e/books/the-ross-household.txt:
// Lady Ross, Hetty, Tom Carver, Mr. Ashby and his brother, every line
// tagged) is uploaded; in the cast panel Hetty is merged into Lady Ross
// (Hetty's lines are then Lady Ross's, Hetty an alias of hers), the alias
// is split off again (the lines tagged "said Hetty" go back to a new
// Hetty), and the text view shows the speakers change each time. The
// gender select, the "Least certain first" review list and that book text
// is escaped are checked on the way.
import { join, resolve } from 'node:path';
import { artifacts, check, getJSON, test, waitBookReady } from '../harness.mjs';

const novel = resolve(new URL('../books/the-ross-household.txt', import.meta.url).pathname);

export default async function ({ server, browser }) {
  const base = server.base;
  const api = (path, init) => getJSON(`${base}${path}`, init);
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  let id = null;

  /** Dialogue lines by speaker, from the API. */
  async function speakers() {
    const p = await api(`/api/audiobook/books/${id}/segments?limit=500`);
    const out = {};
    for (const s of p.items.filter((s) => s.kind === 'dialogue')) (out[s.speaker || ''] ??= []).push(s.id);
    return out;
  }
  /** Each line the text view shows, with its speaker. */
  const shown = () => page.locator('[data-testid=ab-prose] .line').evaluateAll((els) => Object.fromEntries(els.map((el) => [el.dataset.seg, el.dataset.speaker])));
  /** Waits until the text view shows the given lines as spoken by name. */
  async function waitShown(ids, name) {
    await page.waitForFunction(([ids, name]) => ids.every((id) => document.querySelector(`[data-testid=ab-prose] .line[data-seg="${id}"]`)?.dataset.speaker === name), [ids, name]);
  }
  const row = (name) => page.locator('[data-testid=ab-cast-panel] li[data-character]').filter({ has: page.getByTestId('ab-character-name').filter({ hasText: new RegExp(`^${name}$`) }) });

  let hetty = [];
  let ladyRoss = [];
  await test('audiobook cast: upload a constructed novel; the cast panel lists each character with aliases, gender and lines', async () => {
    await page.goto(`${base}/#/audiobook`);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Audiobook' }).and(page.locator('[aria-current=page]')).waitFor();
    await page.getByTestId('ab-file').setInputFiles(novel);
    await page.getByRole('button', { name: 'Upload' }).click();
    await waitBookReady(page, 30000);
    id = /#\/audiobook\/([a-z0-9]+)/.exec(page.url())?.[1];
    check(id, `the address names the book: ${page.url()}`);
    const by = await speakers();
    hetty = by['Hetty'] ?? [];
    ladyRoss = by['Lady Ross'] ?? [];
    check(hetty.length === 4 && ladyRoss.length === 5, `the rules cast Hetty (4 lines) and Lady Ross (5): ${JSON.stringify(by)}`);
    await waitShown(hetty, 'Hetty');
    await row('Hetty').waitFor();
    check((await row('Lady Ross').getByTestId('ab-lines').innerText()) === '5 lines', 'Lady Ross shows her 5 lines');
    check((await row('Lady Ross').getByTestId('ab-gender-select').inputValue()) === 'female', 'Lady Ross is female (her honorific)');
  });

  await test('audiobook cast: merging Hetty into Lady Ross gives her Hetty\'s lines; the text view shows it', async () => {
    await row('Hetty').getByTestId('ab-merge-pick').check();
    await row('Lady Ross').getByTestId('ab-merge-pick').check();
    await page.getByTestId('ab-merge-keep').selectOption({ label: 'Lady Ross' });
    await page.getByTestId('ab-merge').filter({ hasText: 'Merge Hetty into Lady Ross' }).click();
    await page.getByTestId('ab-cast-note').filter({ hasText: 'Merged Hetty into Lady Ross: 4 lines changed speaker.' }).waitFor();
    await waitShown([...hetty, ...ladyRoss], 'Lady Ross');
    check(!(await row('Hetty').count()), 'Hetty left the cast');
    check((await row('Lady Ross').getByTestId('ab-aliases').innerText()).includes('Hetty'), 'Hetty is an alias of Lady Ross');
    check((await row('Lady Ross').getByTestId('ab-lines').innerText()) === '9 lines', 'Lady Ross now has 9 lines');
    const by = await speakers();
    check(!by['Hetty'] && by['Lady Ross'].length === 9, `the API agrees: ${JSON.stringify(by)}`);
    await page.screenshot({ path: join(artifacts, 'audiobook-cast-merged.png') });
  });

  await test('audiobook cast: splitting the alias off gives the lines tagged "said Hetty" back to a new Hetty', async () => {
    await row('Lady Ross').getByRole('button', { name: 'Split Hetty off Lady Ross as a character of their own' }).click();
    await page.getByTestId('ab-cast-note').filter({ hasText: 'Hetty is now a character of their own: 4 lines changed speaker.' }).waitFor();
    await waitShown(hetty, 'Hetty');
    await waitShown(ladyRoss, 'Lady Ross');
    await row('Hetty').waitFor();
    check((await row('Hetty').getByTestId('ab-lines').innerText()) === '4 lines', 'the new Hetty has her 4 lines');
    check(!(await row('Lady Ross').getByTestId('ab-aliases').count()), 'Lady Ross has no alias left');
    const by = await speakers();
    check(JSON.stringify(by['Hetty']) === JSON.stringify(hetty) && by['Lady Ross'].length === 5, `the API agrees: ${JSON.stringify(by)}`);
  });

  await test('audiobook cast: a gender and a rename are saved; a name with markup is shown as text', async () => {
    check((await row('Robert Ashby').getByTestId('ab-gender-select').inputValue()) === 'male', 'Robert Ashby is male (his given name), a character apart from his brother Mr. Ashby');
    await row('Robert Ashby').getByTestId('ab-gender-select').selectOption('');
    await page.getByTestId('ab-cast-note').filter({ hasText: 'Robert Ashby is of unknown gender' }).waitFor();
    const tom = page.locator('[data-testid=ab-cast-panel] li[data-character="tom-carver"]'); // its name gives way to the rename form
    await tom.getByTestId('ab-rename').click();
    await tom.getByTestId('ab-rename-input').fill('<b>Tom</b>');
    await tom.getByTestId('ab-rename-save').click();
    await page.getByTestId('ab-cast-note').filter({ hasText: 'Renamed Tom Carver to <b>Tom</b>' }).waitFor();
    await row('<b>Tom</b>').waitFor();
    check(!(await page.locator('[data-testid=ab-cast-panel] b').count()), 'the name is text, not markup');
    const cast = (await api(`/api/audiobook/books/${id}/cast`)).characters;
    const t = cast.find((c) => c.id === 'tom-carver');
    check(t?.name === '<b>Tom</b>' && t.aliases.includes('Tom Carver') && cast.find((c) => c.name === 'Robert Ashby')?.gender === '', `the API agrees: ${JSON.stringify(cast)}`);
  });

  await test('audiobook cast: the review list shows the lines least certain first', async () => {
    await page.getByTestId('ab-uncertain-filter').click();
    await page.getByRole('heading', { name: 'Lines by confidence, least certain first' }).waitFor();
    const order = (await api(`/api/audiobook/books/${id}/segments?sort=confidence&limit=500`)).items.map((s) => s.id);
    // The list is drawn after its heading, from its own request: wait for it.
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=ab-disputed-list] .line').length >= n, order.length);
    const listed = await page.locator('[data-testid=ab-disputed-list] .line').evaluateAll((els) => els.map((el) => el.dataset.seg));
    check(listed.length === order.length && listed.every((s, i) => s === order[i]), `the list is the server's review order: ${listed} / ${order}`);
    await page.getByTestId('ab-uncertain-filter').click();
  });
}
