import { describe, expect, it } from 'vitest';
import { loadWithRetry } from '../src/loader.js';

type FakeScript = { type: string; src: string; onload?: () => void; onerror?: () => void; remove: () => void };

/** A document whose script loads fail `failures` times, then succeed. */
function fakeDocument(failures: number) {
  const requested: string[] = [];
  const body: unknown[] = [];
  let left = failures;
  const doc = {
    createElement(tag: string) {
      if (tag === 'script') return { type: '', src: '', remove() {} } as FakeScript;
      return { tag, id: '', textContent: '', style: { cssText: '' }, setAttribute() {} };
    },
    head: {
      appendChild(s: FakeScript) {
        requested.push(s.src);
        queueMicrotask(() => (left-- > 0 ? s.onerror?.() : s.onload?.()));
      },
    },
    body: { prepend: (el: unknown) => body.push(el) },
  };
  return { doc: doc as unknown as Document, requested, body };
}

describe('script loader', () => {
  it('loads on the first attempt without waiting', async () => {
    const { doc, requested, body } = fakeDocument(0);
    const waits: number[] = [];
    expect(await loadWithRetry(doc, './assets/main.js?v=1.2.3', { wait: async (ms) => void waits.push(ms) })).toBe(true);
    expect(requested).toEqual(['./assets/main.js?v=1.2.3']);
    expect(waits).toEqual([]);
    expect(body).toEqual([]);
  });

  it('retries with backoff and succeeds on the third attempt', async () => {
    const { doc, requested } = fakeDocument(2);
    const waits: number[] = [];
    expect(await loadWithRetry(doc, './assets/main.js?v=1.2.3', { wait: async (ms) => void waits.push(ms) })).toBe(true);
    expect(requested).toHaveLength(3);
    expect(requested[1]).toBe('./assets/main.js?v=1.2.3&retry=2');
    expect(waits).toEqual([500, 1500]);
  });

  it('shows a banner after three failures and stops', async () => {
    const { doc, requested, body } = fakeDocument(99);
    expect(await loadWithRetry(doc, './assets/main.js?v=1.2.3', { wait: async () => {} })).toBe(false);
    expect(requested).toHaveLength(3);
    expect(body).toHaveLength(1);
    expect((body[0] as { textContent: string }).textContent).toContain('could not load');
  });
});
