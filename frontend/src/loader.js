// Loads the app's main script with retries. Inlined into index.html at build
// time (see vite.config.ts) and unit-tested as a module.

/**
 * @param {Document} doc
 * @param {string} src URL of the module script
 * @param {{ attempts?: number, delays?: number[], wait?: (ms: number) => Promise<void> }} [opts]
 * @returns {Promise<boolean>} true once the script loaded, false after the last failure
 */
export async function loadWithRetry(doc, src, opts = {}) {
  const attempts = opts.attempts ?? 3;
  const delays = opts.delays ?? [500, 1500];
  const wait = opts.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const loaded = await new Promise((resolve) => {
      const script = doc.createElement('script');
      script.type = 'module';
      // A retry asks again past any cached failure.
      script.src = attempt === 1 ? src : `${src}${src.includes('?') ? '&' : '?'}retry=${attempt}`;
      script.onload = () => resolve(true);
      script.onerror = () => {
        script.remove();
        resolve(false);
      };
      doc.head.appendChild(script);
    });
    if (loaded) return true;
    if (attempt < attempts) await wait(delays[Math.min(attempt - 1, delays.length - 1)]);
  }
  const banner = doc.createElement('div');
  banner.setAttribute('role', 'alert');
  banner.id = 'load-failure';
  banner.style.cssText =
    'margin:2rem auto;max-width:40rem;padding:1rem 1.25rem;border:1px solid #b42318;border-radius:8px;background:#fef3f2;color:#7a271a;font:16px/1.5 system-ui,sans-serif';
  banner.textContent = `Lectern could not load its interface script after ${attempts} attempts. Check your connection and reload the page.`;
  doc.body.prepend(banner);
  return false;
}
