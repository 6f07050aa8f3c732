/// <reference types="vitest/config" />
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { versionedIndex } from './src/versioning.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const version = readFileSync(`${root}../VERSION`, 'utf8').trim();
const loaderSource = readFileSync(`${root}src/loader.js`, 'utf8');

// The built index.html loads assets/main.js through the inline loader (3
// attempts with backoff, then a banner) and every asset URL carries
// ?v=<VERSION>, so a release is never mixed with a cached older one.
function lecternIndex(): Plugin {
  return {
    name: 'lectern-index',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => versionedIndex(html, version, loaderSource),
    },
    closeBundle() {
      // Go embeds frontend/dist; .keep lets it compile before the first build.
      writeFileSync(`${root}dist/.keep`, '');
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [svelte(), lecternIndex()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      output: {
        entryFileNames: 'assets/main.js',
        chunkFileNames: 'assets/[name].js',
        assetFileNames: 'assets/[name][extname]',
      },
    },
  },
  // changeOrigin: the server answers only to its own Host (DNS rebinding guard).
  server: { proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } } },
  test: { include: ['test/**/*.test.ts'] },
});
