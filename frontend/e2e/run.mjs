// End-to-end tests in real Chromium against the real `lectern serve` binary.
// Run: LECTERN_BIN=../bin/lectern npm run e2e (make test does it).
// Each file in specs/ exports one function that runs its tests; they run in
// name order against one shared server, and may start servers of their own.
// `npm run e2e -- review` runs only the spec files whose names contain "review".
// With LECTERN_SAMPLES=<folder of the team's sample magazines>, the files in
// samples/ run after them: measurements on real samples (make readaloud-sample).
import { readdirSync } from 'node:fs';
import { cleanups, launchBrowser, startServer, tally } from './harness.mjs';

const only = process.argv.slice(2);
const specFiles = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.mjs') && (!only.length || only.some((o) => f.includes(o))))
    .sort()
    .map((f) => new URL(f, dir));
const files = specFiles(new URL('./specs/', import.meta.url));
if (process.env.LECTERN_SAMPLES) files.push(...specFiles(new URL('./samples/', import.meta.url)));

try {
  const browser = await launchBrowser();
  const server = await startServer();
  for (const f of files) {
    const spec = await import(f);
    await spec.default({ server, browser });
  }
} catch (e) {
  tally.failed++;
  console.log(`FAIL setup: ${e.stack ?? e}`);
} finally {
  for (const c of cleanups.reverse()) {
    try {
      await c();
    } catch (e) {
      console.log(`     cleanup: ${e}`); // not a check: the run's verdict is already made
    }
  }
}

console.log(`\nbrowser e2e: ${tally.passed} passed, ${tally.failed} failed (${files.length} spec files)`);
process.exit(tally.failed ? 1 : 0);
