import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canonical, FINGERPRINT_SCHEMA, fingerprint, type PromptInputs } from '../src/lib/fingerprint';

// The same file the Go test reads (shared/characters/fingerprint_test.go).
const file = fileURLToPath(new URL('../../shared/characters/testdata/fingerprint-vectors.json', import.meta.url));
const doc = JSON.parse(readFileSync(file, 'utf8')) as {
  schema: string;
  vectors: { name: string; inputs: PromptInputs; canonical: string; fingerprint: string }[];
};

describe('prompt fingerprint vectors', () => {
  it('the vector file is the schema this code implements', () => {
    expect(doc.schema).toBe(FINGERPRINT_SCHEMA);
    expect(doc.vectors.length).toBeGreaterThanOrEqual(8);
  });
  for (const v of doc.vectors) {
    it(v.name, async () => {
      expect(canonical(v.inputs)).toBe(v.canonical);
      expect(await fingerprint(v.inputs)).toBe(v.fingerprint);
    });
  }
});
