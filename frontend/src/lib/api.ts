// Typed calls to the Lectern API. Every type comes from the API's OpenAPI
// document through the generated api.gen.ts (npm run gen:api); call() takes a
// path template of that document, so a path, method, parameter, body or
// answer the server does not have fails svelte-check.
import type { components, paths } from './api.gen';
import { sawAnswer, sawNoAnswer } from './connection.svelte';

/** The document's named schemas (Go types, named by httpapi's schemaName). */
export type Schemas = components['schemas'];

/** What every settings response shows for a saved key. */
export const CONFIGURED = '__configured__';

/** Settings as the server shows them: keys are "" when unset, "__configured__" when saved; never the key itself. */
export type SettingsView = Schemas['SettingsView'];

/** PUT /api/settings: omitted fields are kept; for keys "" clears, "__configured__" keeps. */
export type SettingsUpdate = Schemas['SettingsUpdate'];

/** RFC 9457 problem document as huma writes it. */
export type Problem = Schemas['ErrorModel'];

export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The document's path templates that answer method M. */
export type PathWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends { responses: object } ? P : never }[keyof paths];

type Operation<M extends Method, P extends PathWith<M>> = paths[P][M];

/** An operation's path parameters ({} when it has none). */
export type PathParams<M extends Method, P extends PathWith<M>> =
  Operation<M, P> extends { parameters: { path: infer X } } ? X : Record<string, never>;

/** The JSON body an operation takes; undefined when it takes none. */
export type RequestBody<M extends Method, P extends PathWith<M>> =
  Operation<M, P> extends { requestBody?: infer R } ? JSONBody<R> : undefined;
/** An optional body (fix-order's page list) is B | undefined. */
type JSONBody<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
/** The body argument: none, optional or required. */
type BodyArg<B> = [B] extends [undefined] ? [] : undefined extends B ? [B?] : [B];

type Success = 200 | 201 | 202 | 204;

/** The JSON body of an operation's success answer; undefined for 204. */
export type Answer<M extends Method, P extends PathWith<M>> =
  Operation<M, P> extends { responses: infer R }
    ? { [S in keyof R & Success]: R[S] extends { content: { 'application/json': infer B } } ? B : undefined }[keyof R & Success]
    : never;

/** T with the fields K never null: Go sends a nil slice as null, and the api
 *  helpers turn it into [] for the lists the app walks. */
export type Listed<T, K extends keyof T> = Omit<T, K> & { [F in K]-?: NonNullable<T[F]> };

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
  for (const e of (p.errors ?? []).filter((x) => x.location !== CAUSE).slice(0, 3)) {
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

/** The URL of a path template with its parameters filled in, relative to the page (the app may be served under a prefix). */
export function apiUrl(path: string, params: unknown): string {
  const values = params as Record<string, string | number>;
  return path.slice(1).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
}

/** One JSON request to an operation of the document; a failure throws ApiError with the problem body. */
export function call<M extends Method, P extends PathWith<M>>(
  method: M,
  path: P,
  params: PathParams<M, P>,
  ...[body]: BodyArg<RequestBody<M, P>>
): Promise<Answer<M, P>> {
  return request(method, path, params, body, {});
}

/** A GET with a query string (the document's query parameters), else as call(). */
export function callQuery<P extends PathWith<'get'>>(path: P, params: PathParams<'get', P>, query: URLSearchParams): Promise<Answer<'get', P>> {
  return request('get', path, params, undefined, {}, query);
}

/** call() for an edit made on a page version: it is sent as If-Match, so an
 *  edit of a page that changed since answers 409 instead of applying. */
export function callIfMatch<M extends Method, P extends PathWith<M>>(
  version: number,
  method: M,
  path: P,
  params: PathParams<M, P>,
  ...[body]: BodyArg<RequestBody<M, P>>
): Promise<Answer<M, P>> {
  return request(method, path, params, body, { 'If-Match': String(version) });
}

async function request<M extends Method, P extends PathWith<M>>(
  method: M,
  path: P,
  params: PathParams<M, P>,
  body: RequestBody<M, P> | undefined,
  extra: Record<string, string>,
  query?: URLSearchParams,
): Promise<Answer<M, P>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders(), ...extra };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const qs = query?.toString();
  const resp = await reach(qs ? `${apiUrl(path, params)}?${qs}` : apiUrl(path, params), {
    method: method.toUpperCase(),
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
  return parsed as Answer<M, P>;
}

/** The server did not answer at all (status 0): the banner retries on its own. */
export const NO_ANSWER: Problem = { title: 'Server unreachable', detail: 'The server did not answer. Lectern keeps trying and reloads when it is back.' };

/** fetch() that tells the connection banner whether the server answered; no
 *  answer throws ApiError with status 0. */
export async function reach(url: string, init: RequestInit): Promise<Response> {
  let resp: Response;
  try {
    resp = await fetch(url, init);
  } catch {
    sawNoAnswer();
    throw new ApiError(0, NO_ANSWER);
  }
  sawAnswer();
  return resp;
}

/** One request with upload progress (XMLHttpRequest: fetch cannot report
 *  it), told to the connection banner as reach() tells it; onProgress gets
 *  the share sent (0..1), and 1 once the whole body is sent. A failure
 *  throws ApiError with the problem body (status 0: no answer). */
export function sendWithProgress(method: string, url: string, body: Blob | FormData, headers: Record<string, string>, onProgress: (sent: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      sawAnswer();
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.responseText);
      else reject(problemFrom(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => {
      sawNoAnswer();
      reject(new ApiError(0, { title: 'Server unreachable', detail: 'The upload did not reach the server.' }));
    };
    xhr.send(body);
  });
}

/** Where a problem body keeps the technical cause, apart from its detail (the server's CauseLocation). */
export const CAUSE = 'cause';

/** What to show for a failure: the sentence for the user, whole (what
 *  happened, what to do), and the details (status, the technical cause, every
 *  other message of the problem body) for a "Details" disclosure. */
export function explain(e: unknown): { short: string; details: string[] } {
  if (!(e instanceof ApiError)) return { short: (e instanceof Error ? e.message : String(e)).trim(), details: [] };
  const p = e.problem;
  const details = [e.status ? `HTTP ${e.status}${p.title ? ` ${p.title}` : ''}` : 'no answer from the server'];
  for (const x of p.errors ?? []) {
    if (!x.message) continue;
    details.push(x.location === CAUSE ? `Cause: ${x.message}` : x.location ? `${x.location}: ${x.message}` : x.message);
  }
  return { short: (p.detail || p.title || `HTTP ${e.status}`).trim(), details };
}

export const api = {
  version: () => call('get', '/api/version', {}),
  getSettings: () => call('get', '/api/settings', {}),
  putSettings: (u: SettingsUpdate) => call('put', '/api/settings', {}, u),
};
