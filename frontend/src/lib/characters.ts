// The Characters section's API calls and pure helpers. Types come from the
// API document (charactersapi); the fingerprint is computed here as the
// server computes it (fingerprint.ts).
import { call, callIfMatch, type Schemas } from './api';
import type { PromptInputs } from './fingerprint';

export type CharacterSet = Schemas['CharactersSet'];
export type Character = Schemas['CharactersCharacter'];
export type Form = Schemas['CharactersForm'];
export type CharacterImage = Schemas['CharactersImage'];
export type Prompts = Schemas['CharactersPrompts'];
export type ImageKind = 'avatar' | 'concept' | 'pair' | 'turnaround' | 'story';

/** The visual_* overrides, in the order the editor shows them. */
export const VISUAL_FIELDS = [
  { key: 'visual_style', label: 'Style' },
  { key: 'visual_hair', label: 'Hair' },
  { key: 'visual_eyes', label: 'Eyes' },
  { key: 'visual_skin', label: 'Skin' },
  { key: 'visual_build', label: 'Build' },
  { key: 'visual_palette', label: 'Palette' },
] as const;
export type VisualKey = (typeof VISUAL_FIELDS)[number]['key'];
export type Visual = Partial<Record<VisualKey, string>>;

/** What the form editor holds: the active form's texts and the overrides. */
export interface Draft {
  physical: string;
  clothing: string;
  visual: Visual;
}

export function draftOf(c: Character, form: Form): Draft {
  const visual: Visual = {};
  for (const f of VISUAL_FIELDS) if (c[f.key]) visual[f.key] = c[f.key];
  return { physical: form.physical, clothing: form.clothing, visual };
}

/** The inputs of a form's prompts and fingerprint, as the server reads them. */
export function inputsOf(c: Character, form: Form, d: Draft): PromptInputs {
  return { name: c.name, age: c.age, form: form.name, physical: d.physical, clothing: d.clothing, ...d.visual };
}

/** The form with id, else the first (the base form). */
export function formOf(c: Character, id: string): Form | undefined {
  const forms = c.forms ?? [];
  return forms.find((f) => f.id === id) ?? forms[0];
}

/** A short fingerprint to show; the full one is its title. */
export const shortPrint = (fp: string) => fp.slice(0, 12);

/** The images of a form, newest kinds first as the gallery shows them. */
export function imagesOf(f: Form): CharacterImage[] {
  return [f.avatar, f.concept, f.turnaround, ...(f.story ?? [])].filter((i): i is CharacterImage => !!i);
}

export const KIND_LABEL: Record<ImageKind, string> = {
  avatar: 'Avatar',
  pair: 'Avatar + concept',
  concept: 'Concept art',
  turnaround: 'Turnaround',
  story: 'Story image',
};

export const charactersApi = {
  sets: () => call('get', '/api/characters', {}),
  extract: (body: { title?: string; text?: string; book_id?: string }) => call('post', '/api/characters', {}, body),
  set: (set: string) => call('get', '/api/characters/{set}', { set }),
  remove: (set: string) => call('delete', '/api/characters/{set}', { set }),
  character: (set: string, character: string) => call('get', '/api/characters/{set}/{character}', { set, character }),
  edit: (version: number, set: string, character: string, body: Schemas['CharactersapiEditBody']) =>
    callIfMatch(version, 'patch', '/api/characters/{set}/{character}', { set, character }, body),
  addForm: (set: string, character: string, name: string) => call('post', '/api/characters/{set}/{character}/forms', { set, character }, { name }),
  preview: (inputs: PromptInputs) =>
    call('post', '/api/characters/prompts', {}, { name: '', age: '', form: '', physical: '', clothing: '', ...inputs }),
  generate: (set: string, character: string, form: string, kind: ImageKind, passage?: string) =>
    call('post', '/api/characters/{set}/{character}/forms/{form}/images', { set, character, form }, passage ? { kind, passage } : { kind }),
  review: (set: string, character: string, form: string) => call('post', '/api/characters/{set}/{character}/forms/{form}/review', { set, character, form }),
  job: (id: string) => call('get', '/api/jobs/{id}', { id }),
  books: () => call('get', '/api/audiobook/books', {}),
};

/** Polls a job until it ends, reporting its progress; resolves with the final view. */
export async function followJob(id: string, onProgress: (fraction: number, message: string) => void, delay = 400) {
  for (;;) {
    const j = await charactersApi.job(id);
    onProgress(j.progress, j.message ?? '');
    if (j.status === 'succeeded' || j.status === 'failed') return j;
    await new Promise((r) => setTimeout(r, delay));
  }
}
