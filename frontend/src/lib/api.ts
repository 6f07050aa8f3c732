// Typed calls to the Lectern API, mirroring the Go JSON (shared/settings).

/** What every settings response shows for a saved key. */
export const CONFIGURED = '__configured__';

export interface SettingsView {
  instance_name: string;
  llm_url: string;
  /** "" when unset, "__configured__" when saved; never the key itself. */
  llm_api_key: string;
  engine_api_keys: Record<string, string>;
  vision_ocr_url: string;
  vision_ocr_fallback_url: string;
  llm_model: string;
  vision_ocr_model: string;
  /** Hosts, host:port, addresses or CIDRs the hosted server may call anyway. */
  engine_url_allowlist: string[];
}

/** PUT /api/settings: omitted fields are kept; for keys "" clears, "__configured__" keeps. */
export type SettingsUpdate = Partial<SettingsView>;

/** RFC 9457 problem document as huma writes it. */
export interface Problem {
  title?: string;
  status?: number;
  detail?: string;
  errors?: { message?: string; location?: string }[];
}

export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem;
  constructor(status: number, problem: Problem) {
    super(describeProblem(status, problem));
    this.status = status;
    this.problem = problem;
  }
}

/** One readable sentence from a problem body. */
export function describeProblem(status: number, p: Problem): string {
  const parts = [p.detail || p.title || `HTTP ${status}`];
  for (const e of (p.errors ?? []).slice(0, 3)) {
    if (e.message) parts.push(e.location ? `${e.location}: ${e.message}` : e.message);
  }
  return parts.join(' — ');
}

const TOKEN_KEY = 'lectern.token';

export function getToken(): string {
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

export function setToken(token: string): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** Headers every API call carries (the bearer token when one is set). */
export function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** Parses a failed response's problem body into an ApiError. */
export function problemFrom(status: number, text: string): ApiError {
  try {
    return new ApiError(status, JSON.parse(text) as Problem);
  } catch {
    return new ApiError(status, { detail: text.slice(0, 200) });
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const resp = await fetch(`api/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await resp.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!resp.ok) throw new ApiError(resp.status, (parsed as Problem) ?? { detail: text.slice(0, 200) });
  return parsed as T;
}

export const api = {
  version: () => call<{ version: string }>('GET', 'version'),
  getSettings: () => call<SettingsView>('GET', 'settings'),
  putSettings: (u: SettingsUpdate) => call<SettingsView>('PUT', 'settings', u),
};
