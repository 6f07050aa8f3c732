// The prompt fingerprint of a character form, computed exactly as the
// server computes it (shared/characters/fingerprint.go, Canonical): both
// run the vectors in shared/characters/testdata/fingerprint-vectors.json.

export const FINGERPRINT_SCHEMA = 'lectern.character-prompt.v1';

/** The inputs of a form's prompts: API field names, absent is "". */
export interface PromptInputs {
  name?: string;
  age?: string;
  form?: string;
  physical?: string;
  clothing?: string;
  visual_style?: string;
  visual_hair?: string;
  visual_eyes?: string;
  visual_skin?: string;
  visual_build?: string;
  visual_palette?: string;
}

// Spelled out, as in Go: JS's \s lacks U+0085 and Go's IsSpace lacks U+FEFF.
const WHITESPACE = /[\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]+/g;

/** NFC, whitespace runs as one space, trimmed. */
export function clean(s: string | undefined): string {
  return (s ?? '').normalize('NFC').replace(WHITESPACE, ' ').replace(/^ | $/g, '');
}

function str(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c < 0x20) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/** The canonical text the fingerprint hashes. */
export function canonical(inp: PromptInputs): string {
  const field = (k: string, v: string | undefined) => str(k) + ':' + str(clean(v));
  const top = [
    field('age', inp.age),
    field('clothing', inp.clothing),
    field('form', inp.form),
    field('name', inp.name),
    field('physical', inp.physical),
    str('schema') + ':' + str(FINGERPRINT_SCHEMA),
  ];
  const visual = [
    field('build', inp.visual_build),
    field('eyes', inp.visual_eyes),
    field('hair', inp.visual_hair),
    field('palette', inp.visual_palette),
    field('skin', inp.visual_skin),
    field('style', inp.visual_style),
  ];
  return '{' + top.join(',') + ',' + str('visual') + ':{' + visual.join(',') + '}}';
}

/** Lowercase hex SHA-256 of the canonical text's UTF-8 bytes (WebCrypto). */
export async function fingerprint(inp: PromptInputs): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical(inp)));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
