// Turns Vite's built index.html into Lectern's: the entry module script is
// replaced by the inline retrying loader, and every local asset URL gets
// ?v=<version>. Pure string work so it can be unit-tested.

const ENTRY = /<script type="module" crossorigin src="(\.\/assets\/main\.js)"><\/script>\s*/;

/**
 * @param {string} html index.html as Vite built it
 * @param {string} version contents of VERSION
 * @param {string} loaderSource source of src/loader.js
 * @returns {string}
 */
export function versionedIndex(html, version, loaderSource) {
  const entry = html.match(ENTRY);
  if (!entry) throw new Error('built index.html has no ./assets/main.js entry script');
  let out = html.replace(ENTRY, '');
  out = out.replace(/(href|src)="(\.\/assets\/[^"?]+)"/g, (_m, attr, url) => `${attr}="${url}?v=${version}"`);
  const inline = loaderSource.replace(/^export /m, '');
  const script =
    `<script>\n${inline}\n` +
    `loadWithRetry(document, ${JSON.stringify(`${entry[1]}?v=${version}`)});\n</script>\n`;
  return out.replace('</body>', `${script}</body>`);
}
