// e2e: Engine cards.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { artifacts, check, checkNoSecrets, cleanups, createHTTPServer, freePort, getJSON, ingest, recordBodies, samplePDF, startServer, test, version } from '../harness.mjs';

/** Runs this file's tests against server (a running lectern) in browser. */
export default async function ({ server, browser }) {
  await test('engines: add a card, a wrong key shows the 401, the right key lists models, pick one, use it as LLM', async () => {
    const rightKey = `sk-engine-${Math.random().toString(36).slice(2)}`;
    const wrongKey = `sk-wrong-${Math.random().toString(36).slice(2)}`;
    const port = await freePort();
    const engine = createHTTPServer((req, res) => {
      res.setHeader('Content-Type', 'application/json');
      if (req.url !== '/v1/models') {
        res.writeHead(404).end('{"error":{"message":"not found"}}');
      } else if (req.headers.authorization !== `Bearer ${rightKey}`) {
        res.writeHead(401).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${req.headers.authorization}` } }));
      } else {
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'llama-3.3-70b' }, { id: 'qwen3-32b' }, { id: 'qwen2.5-vl-7b' }] }));
      }
    });
    await new Promise((r) => engine.listen(port, '127.0.0.1', r));
    cleanups.push(() => engine.close());

    const context = await browser.newContext();
    const page = await context.newPage();
    const bodies = recordBodies(page);
    await page.goto(`${server.base}/#/engines`);
    await page.getByLabel('Name').fill('gateway');
    await page.getByLabel('Kind').selectOption('llm');
    await page.getByLabel('Base URL').fill(`http://127.0.0.1:${port}/`);
    await page.getByRole('button', { name: 'Add card' }).click();
    const card = page.getByRole('listitem', { name: 'Engine gateway' });
    await card.waitFor();

    await card.getByLabel('Card key').fill(wrongKey);
    await card.getByRole('button', { name: 'Save key' }).click();
    await page.getByTestId('key-gateway-configured').waitFor();
    await card.getByRole('button', { name: 'Connect' }).click();
    await page.getByTestId('result-gateway').filter({ hasText: '401' }).waitFor();
    const wrong = await page.getByTestId('result-gateway').innerText();
    check(!wrong.includes('404') && wrong.includes(`127.0.0.1:${port}`), `the 401 names the engine URL: ${wrong}`);

    await card.getByLabel('Card key').fill(rightKey);
    await card.getByRole('button', { name: 'Save key' }).click();
    await page.getByTestId('result-gateway').filter({ hasText: 'Key saved.' }).waitFor();
    await card.getByRole('button', { name: 'Connect' }).click();
    await page.getByTestId('result-gateway').filter({ hasText: '3 models' }).waitFor();

    const picker = card.getByRole('combobox', { name: 'Model' });
    await picker.click();
    await picker.fill('qwen 32');
    const options = card.getByRole('option');
    check((await options.count()) === 1, `the search leaves one model (got ${await options.count()})`);
    await options.first().getByRole('button', { name: 'qwen3-32b' }).click();
    await page.getByTestId('result-gateway').filter({ hasText: 'Model set: qwen3-32b' }).waitFor();

    await card.getByRole('button', { name: 'Use as LLM' }).click();
    await page.getByTestId('result-gateway').filter({ hasText: `Now the LLM: http://127.0.0.1:${port}/v1` }).waitFor();

    await page.goto(`${server.base}/#/settings`);
    await page.getByLabel('LLM URL').waitFor();
    await page.getByTestId('llm_api_key-configured').waitFor();
    const llmURL = await page.getByLabel('LLM URL').inputValue();
    check(llmURL === `http://127.0.0.1:${port}/v1`, `llm_url ends in exactly one /v1: ${llmURL}`);
    await page.getByTestId('llm_model-value').filter({ hasText: 'qwen3-32b' }).waitFor();
    const all = await bodies();
    checkNoSecrets(all, '/api/engines/gateway/connect', [rightKey, wrongKey]);
    console.log(`     checked ${all.length} response bodies for the card keys`);
    await context.close();
  });

  await test('engines: the built-in offline engines show as cards with their real status, on Engines and in Settings', async () => {
    // What this machine has, as the programs print it (make deps installs them).
    const versionOf = (cmd, flag) => execFileSync(cmd, [flag], { encoding: 'utf8' });
    const tesseract = versionOf('tesseract', '--version').split('\n')[0].split(' ')[1];
    const espeak = /text-to-speech: (\S+)/.exec(versionOf('espeak-ng', '--version'))[1];
    // A server whose ffmpeg is named where there is none.
    const other = await startServer({ LECTERN_FFMPEG: '/nonexistent/ffmpeg' });
    for (const [viewport, shot] of [[{ width: 1440, height: 900 }, 'builtins-1440x900.png'], [{ width: 375, height: 812 }, 'builtins-375.png']]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${other.base}/#/engines`);
      const section = page.getByTestId('builtin-engines');
      const cards = section.getByRole('listitem');
      await cards.first().waitFor();
      const names = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-engine')));
      check(JSON.stringify(names) === JSON.stringify(['text-layer', 'tesseract', 'espeak-ng', 'piper', 'whisper', 'ffmpeg']), `one card per built-in engine: ${names}`);
      check((await section.getByTestId('builtin-tesseract-status').innerText()) === `found · ${tesseract}`, `Tesseract shows the version it prints (${tesseract})`);
      check((await section.getByTestId('builtin-espeak-ng-status').innerText()) === `found · ${espeak}`, `espeak-ng shows ${espeak}`);
      check((await section.getByTestId('builtin-text-layer-status').innerText()).startsWith('found · 1.'), 'the PDF text layer (MuPDF) is found');
      const ffmpeg = section.getByRole('listitem', { name: 'Built-in ffmpeg' });
      check((await ffmpeg.getByTestId('builtin-ffmpeg-status').innerText()) === 'missing', 'an ffmpeg that is not there is missing');
      check((await ffmpeg.innerText()).includes('apt-get install ffmpeg'), 'and the card says how to install it');
      check(await section.getByText('Built-in engines', { exact: true }).isVisible(), 'the section is named');
      await page.screenshot({ path: join(artifacts, shot), fullPage: true });
      await context.close();
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/#/settings`);
    const section = page.getByTestId('builtin-engines');
    await section.getByTestId('builtin-tesseract-status').filter({ hasText: `found · ${tesseract}` }).waitFor();
    check((await section.getByRole('listitem').count()) === 6, 'Settings shows the six built-in engines too');
    await context.close();
  });

  await test('engines: a vision OCR card names its preset, and shows the prompt the preset sends', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    await page.goto(`${server.base}/#/engines`);
    await page.getByLabel('Name').fill('dots');
    await page.getByLabel('Kind').selectOption('vision-ocr');
    await page.getByLabel('OCR preset').selectOption('dots-ocr');
    await page.getByLabel('Base URL').fill('http://127.0.0.1:8000/v1');
    await page.getByRole('button', { name: 'Add card' }).click();
    const card = page.getByRole('listitem', { name: 'Engine dots' });
    await card.waitFor();
    check((await card.getByTestId('ocr-preset-dots').innerText()).includes('dots.ocr (vLLM)'), 'the card reads as dots.ocr');
    const prompt = card.getByTestId('ocr-prompt-dots');
    await prompt.getByText('Prompt sent with each page').click();
    const text = await prompt.locator('pre').innerText();
    check(text.startsWith('Please output the layout information from the PDF image') && text.includes("'Page-footer', 'Page-header', 'Picture'"), `the prompt is dots.ocr's prompt_layout_all_en: ${text.slice(0, 80)}`);
    const box = await prompt.locator('pre').boundingBox();
    check(box && box.x >= 0 && box.x + box.width <= 375, `the prompt fits a 375 px screen: ${JSON.stringify(box)}`);
    await page.screenshot({ path: join(artifacts, 'ocr-preset-prompt-375.png'), fullPage: true });

    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByLabel('OCR preset').selectOption('docling');
    await card.getByRole('button', { name: 'Save card' }).click();
    await card.getByTestId('ocr-preset-dots').filter({ hasText: 'docling-serve' }).waitFor();
    // The prompt stays open across the edit.
    await card.getByTestId('ocr-prompt-dots').getByText('None: docling-serve takes the page image alone.').waitFor();
    const listed = (await getJSON(`${server.base}/api/engines`)).cards.find((c) => c.name === 'dots');
    check(listed.ocr_preset === 'docling' && !listed.ocr_prompt, `the API lists the docling card without a prompt: ${JSON.stringify(listed)}`);
    await context.close();
  });
}
