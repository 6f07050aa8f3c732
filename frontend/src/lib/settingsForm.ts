// The Settings form's state and the rule for what a save sends. Keys are
// write-only: the form never holds a saved key, only whether one exists.
import { CONFIGURED, type SettingsUpdate, type SettingsView } from './api';

export interface KeyField {
  /** The server has a key saved. */
  configured: boolean;
  /** A new key typed by the user; sent once, then emptied. */
  typed: string;
  /** The user asked to remove the saved key. */
  clear: boolean;
}

export interface CardKeyRow extends KeyField {
  card: string;
}

export interface SettingsForm {
  instance_name: string;
  llm_url: string;
  vision_ocr_url: string;
  vision_ocr_fallback_url: string;
  llm_model: string;
  vision_ocr_model: string;
  /** One allow-list entry per line. */
  engine_url_allowlist: string;
  /** Renders that do not ask either way are checked by the ear. */
  ear_check: boolean;
  llm_api_key: KeyField;
  cards: CardKeyRow[];
}

export function keyField(shown: string | undefined): KeyField {
  return { configured: shown === CONFIGURED, typed: '', clear: false };
}

/** Form state from a settings response. */
export function formFrom(view: SettingsView): SettingsForm {
  return {
    instance_name: view.instance_name,
    llm_url: view.llm_url,
    vision_ocr_url: view.vision_ocr_url,
    vision_ocr_fallback_url: view.vision_ocr_fallback_url,
    llm_model: view.llm_model ?? '',
    vision_ocr_model: view.vision_ocr_model ?? '',
    engine_url_allowlist: (view.engine_url_allowlist ?? []).join('\n'),
    ear_check: view.ear_check ?? true,
    llm_api_key: keyField(view.llm_api_key),
    cards: Object.keys(view.engine_api_keys ?? {})
      .sort()
      .map((card) => ({ card, ...keyField(view.engine_api_keys[card]) })),
  };
}

/** What to send for one key: a typed key sets it, Clear sends "", otherwise nothing (kept). */
export function keyUpdate(f: KeyField): string | undefined {
  if (f.typed !== '') return f.typed;
  if (f.clear) return '';
  return undefined;
}

/** The PUT body for a save. Unchanged keys are omitted, so they are kept. */
export function updateFrom(form: SettingsForm): SettingsUpdate {
  const u: SettingsUpdate = {
    instance_name: form.instance_name.trim(),
    llm_url: form.llm_url.trim(),
    vision_ocr_url: form.vision_ocr_url.trim(),
    vision_ocr_fallback_url: form.vision_ocr_fallback_url.trim(),
    llm_model: form.llm_model.trim(),
    vision_ocr_model: form.vision_ocr_model.trim(),
    engine_url_allowlist: form.engine_url_allowlist
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
    ear_check: form.ear_check,
  };
  const llm = keyUpdate(form.llm_api_key);
  if (llm !== undefined) u.llm_api_key = llm;
  const cards: Record<string, string> = {};
  for (const row of form.cards) {
    const card = row.card.trim();
    const v = keyUpdate(row);
    if (card && v !== undefined) cards[card] = v;
  }
  if (Object.keys(cards).length > 0) u.engine_api_keys = cards;
  return u;
}

/** Problems the form can point out before sending anything. */
export function formErrors(form: SettingsForm): string[] {
  const errs: string[] = [];
  if (!form.instance_name.trim()) errs.push('Instance name is required.');
  for (const [label, v] of [
    ['LLM URL', form.llm_url],
    ['Vision OCR URL', form.vision_ocr_url],
    ['Fallback vision OCR URL', form.vision_ocr_fallback_url],
  ] as const) {
    if (v.trim() && !/^https?:\/\/[^/\s]+/i.test(v.trim())) errs.push(`${label} must start with http:// or https://.`);
  }
  for (const entry of form.engine_url_allowlist.split('\n').map((l) => l.trim()).filter(Boolean)) {
    if (entry.includes('://')) errs.push(`Allow-list entry "${entry}" must be a host, not a URL.`);
  }
  const seen = new Set<string>();
  for (const row of form.cards) {
    const card = row.card.trim();
    if (!card && row.typed) errs.push('Every engine key needs a card name.');
    if (card && seen.has(card)) errs.push(`Card "${card}" is listed twice.`);
    seen.add(card);
  }
  return errs;
}
