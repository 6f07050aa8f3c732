// Engine cards API calls and the pure helpers of the Engines section,
// mirroring the Go JSON (shared/cards, enginesapi).
import { call, type SettingsView } from './api';

export const KINDS = [
  { id: 'llm', label: 'LLM gateway' },
  { id: 'vision-ocr', label: 'Vision OCR (primary)' },
  { id: 'vision-ocr-fallback', label: 'Vision OCR (fallback)' },
  { id: 'vision', label: 'Vision / describe' },
  { id: 'tts', label: 'Text to speech' },
  { id: 'image', label: 'Image' },
  { id: 'other', label: 'Other container' },
] as const;

export type Kind = (typeof KINDS)[number]['id'];

export interface Spec {
  kind: Kind;
  base_url?: string;
  model?: string;
  container?: string;
  docker_host?: string;
}

export interface CardView extends Spec {
  name: string;
  /** The URL the server will call; empty when the card needs one. */
  url: string;
  url_source: 'card' | 'default' | 'missing';
  docker_url: string;
  key_configured: boolean;
}

export type ContainerStatus = 'running' | 'stopped' | 'restarting' | 'unhealthy' | 'not-installed';

const path = (name: string) => `engines/${encodeURIComponent(name)}`;

export const enginesApi = {
  list: () => call<{ cards: CardView[] }>('GET', 'engines').then((r) => r.cards),
  put: (name: string, spec: Spec) => call<CardView>('PUT', path(name), spec),
  remove: (name: string) => call<void>('DELETE', path(name)),
  status: (name: string) => call<{ status: ContainerStatus }>('GET', `${path(name)}/status`).then((r) => r.status),
  control: (name: string, op: 'start' | 'stop' | 'restart') =>
    call<{ status: ContainerStatus }>('POST', `${path(name)}/${op}`).then((r) => r.status),
  connect: (name: string) => call<{ url: string; models: string[] }>('POST', `${path(name)}/connect`),
  useAsLLM: (name: string) => call<SettingsView>('POST', `${path(name)}/use-as-llm`),
  saveKey: (card: string, key: string) => call<SettingsView>('PUT', 'settings', { engine_api_keys: { [card]: key } }),
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
