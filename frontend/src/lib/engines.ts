// Engine cards API calls and the pure helpers of the Engines section. Types
// come from the API document (shared/cards and enginesapi as the server describes them).
import { call, type Schemas } from './api';

export type Kind = Schemas['CardsSpec']['kind'];

/** Every card kind with its label, in the order the form offers them. */
export const KINDS: readonly { id: Kind; label: string }[] = [
  { id: 'llm', label: 'LLM gateway' },
  { id: 'vision-ocr', label: 'Vision OCR (primary)' },
  { id: 'vision-ocr-fallback', label: 'Vision OCR (fallback)' },
  { id: 'vision', label: 'Vision / describe' },
  { id: 'tts', label: 'Text to speech' },
  { id: 'image', label: 'Image' },
  { id: 'other', label: 'Other container' },
];

export type Spec = Schemas['CardsSpec'];
export type CardView = Schemas['CardsView'];
export type ContainerStatus = Schemas['StatusOutputBody']['status'];

/** A TTS card's voice protocol; "" (unset) is openai. */
export type VoiceAPI = Exclude<NonNullable<Spec['voice_api']>, ''>;

/** Every voice API with its label and what it can do, in the order the form offers them. */
export const VOICE_APIS: readonly { id: VoiceAPI; label: string; clone: boolean; design: boolean }[] = [
  { id: 'openai', label: 'OpenAI speech only', clone: false, design: false },
  { id: 'chatterbox', label: 'Chatterbox (clone)', clone: true, design: false },
  { id: 'elevenlabs', label: 'ElevenLabs (clone, design)', clone: true, design: true },
];

/** The voice API of a card: its own, else openai (the server's default). */
export function voiceAPIOf(c: Pick<Spec, 'voice_api'>): VoiceAPI {
  return c.voice_api || 'openai';
}

/** The voice API's entry of VOICE_APIS (openai for anything unknown). */
export function voiceAPIInfo(c: Pick<Spec, 'voice_api'>): (typeof VOICE_APIS)[number] {
  return VOICE_APIS.find((a) => a.id === voiceAPIOf(c)) ?? VOICE_APIS[0];
}

/** A vision OCR card's engine family (its prompt and answer reader); "" (unset) is lectern. */
export type OCRPreset = Exclude<NonNullable<Spec['ocr_preset']>, ''>;

/** Every OCR preset with its label, in the order the form offers them. */
export const OCR_PRESETS: readonly { id: OCRPreset; label: string }[] = [
  { id: 'lectern', label: 'Lectern JSON (any vision model)' },
  { id: 'dots-ocr', label: 'dots.ocr (vLLM)' },
  { id: 'olmocr', label: 'olmOCR (vLLM)' },
  { id: 'docling', label: 'docling-serve' },
  { id: 'qwen2.5-vl', label: 'Qwen2.5-VL (vLLM)' },
  { id: 'qwen3-vl', label: 'Qwen3-VL (vLLM)' },
];

/** Whether cards of kind k read pages (and so name an OCR preset). */
export const isVisionOCR = (k: Kind) => k === 'vision-ocr' || k === 'vision-ocr-fallback';

/** The OCR preset's entry of OCR_PRESETS (lectern for anything unknown). */
export function ocrPresetInfo(c: Pick<Spec, 'ocr_preset'>): (typeof OCR_PRESETS)[number] {
  return OCR_PRESETS.find((p) => p.id === c.ocr_preset) ?? OCR_PRESETS[0];
}

/** The PUT body that saves a card with changes: every field the card has is
 *  sent back (a PUT replaces the card), voice_api too for TTS cards and
 *  ocr_preset for vision OCR cards. */
export function specOf(c: Spec, changes: Partial<Spec> = {}): Spec {
  const s = { ...c, ...changes };
  const spec: Spec = { kind: s.kind, base_url: s.base_url ?? '', model: s.model ?? '', container: s.container ?? '', docker_host: s.docker_host ?? '' };
  if (s.kind === 'tts') spec.voice_api = voiceAPIOf(s);
  if (isVisionOCR(s.kind)) spec.ocr_preset = ocrPresetInfo(s).id;
  return spec;
}

const card = '/api/engines/{name}';

export type BuiltinEngine = Schemas['BuiltinsEngine'];

export const enginesApi = {
  list: () => call('get', '/api/engines', {}).then((r) => r.cards ?? []),
  /** The offline engines as the server finds them now. */
  builtins: () => call('get', '/api/builtin-engines', {}).then((r) => ({ host: r.host, engines: r.engines ?? [] })),
  put: (name: string, spec: Spec) => call('put', card, { name }, spec),
  remove: (name: string) => call('delete', card, { name }),
  status: (name: string) => call('get', `${card}/status`, { name }).then((r) => r.status),
  control: (name: string, op: 'start' | 'stop' | 'restart') => call('post', `${card}/${op}`, { name }).then((r) => r.status),
  connect: (name: string) => call('post', `${card}/connect`, { name }).then((r) => ({ ...r, models: r.models ?? [] })),
  useAsLLM: (name: string) => call('post', `${card}/use-as-llm`, { name }),
  saveKey: (name: string, key: string) => call('put', '/api/settings', {}, { engine_api_keys: { [name]: key } }),
};

/** The models whose names contain every word of the query, in their order. */
export function filterModels(models: string[], query: string): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return models.filter((m) => words.every((w) => m.toLowerCase().includes(w)));
}

/** Badge class and text for a container state. */
export function statusBadge(s: ContainerStatus | undefined): { cls: string; text: string } {
  switch (s) {
    case 'running':
      return { cls: 'ok', text: 'Running' };
    case 'restarting':
      return { cls: 'warn', text: 'Restarting' };
    case 'unhealthy':
      return { cls: 'err', text: 'Unhealthy' };
    case 'stopped':
      return { cls: 'warn', text: 'Stopped' };
    case 'not-installed':
      return { cls: 'err', text: 'Not installed' };
  }
  return { cls: '', text: 'Unknown' };
}

/** The card name rule of the server, checked before sending. */
export function cardNameError(name: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/.test(name) ? '' : 'Names are 1-64 letters, digits, spaces, ".", "_" or "-".';
}

/** An engine address without the parts that do not change which engine it
 *  is: case of the host, trailing slashes, and the /v1 that Use as LLM adds. */
export function sameEngineURL(a: string, b: string): boolean {
  const norm = (u: string) => u.trim().toLowerCase().replace(/\/+$/, '').replace(/\/v1$/, '');
  return !!a.trim() && norm(a) === norm(b);
}


/** A built-in engine's status line: its version when found, else "missing". */
export function builtinStatus(e: Pick<BuiltinEngine, 'found' | 'version'>): string {
  if (!e.found) return 'missing';
  return e.version ? `found · ${e.version}` : 'found';
}
