import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { versionedIndex } from '../src/versioning.js';

const version = readFileSync(new URL('../../VERSION', import.meta.url), 'utf8').trim();
const builtIndex = new URL('../dist/index.html', import.meta.url);

function versionsIn(html: string): string[] {
  return [...html.matchAll(/\?v=([^"&\s]+)/g)].map((m) => m[1]);
}

describe('index.html versioning', () => {
  it('rewrites every asset URL and the loader to carry ?v=VERSION', () => {
    const viteOutput =
      '<html><head><link rel="stylesheet" crossorigin href="./assets/index.css"></head><body>' +
      '<script type="module" crossorigin src="./assets/main.js"></script>\n</body></html>';
    const html = versionedIndex(viteOutput, '9.8.7', 'export function loadWithRetry() {}');
    expect(html).toContain('href="./assets/index.css?v=9.8.7"');
    expect(html).toContain('loadWithRetry(document, "./assets/main.js?v=9.8.7")');
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('export function');
  });

  it('refuses a build without the expected entry script', () => {
    expect(() => versionedIndex('<html><body></body></html>', '1.0.0', '')).toThrow(/entry script/);
  });

  it('the built index.html carries ?v= equal to VERSION on every asset', () => {
    expect(existsSync(builtIndex), 'run `npm run build` first').toBe(true);
    const html = readFileSync(builtIndex, 'utf8');
    const versions = versionsIn(html);
    expect(versions.length).toBeGreaterThanOrEqual(2); // stylesheet + main script
    expect(new Set(versions)).toEqual(new Set([version]));
    const assetRefs = [...html.matchAll(/(?:href|src)="(\.\/assets\/[^"]+)"/g)].map((m) => m[1]);
    for (const ref of assetRefs) expect(ref).toContain(`?v=${version}`);
  });
});
