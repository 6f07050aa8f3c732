// Region review: API calls and the pure rules the review page follows
// (selection, shortcuts, reading-order mode, approval payloads). Types come
// from the API document (shared/review and reviewapi as the server describes them).
import { call, callIfMatch, type Schemas } from './api';
import { recognizeInBodyEngineValues } from './api.gen';
import type { BBox, Page, Region, RegionKind } from './magazine';

export type Outcome = Schemas['ReviewOutcome'];
export type RegionRef = Schemas['MagazineRegionRef'];
export type Article = Schemas['MagazineArticle'];
/** PATCH of one region: only the fields sent change. */
export type RegionPatch = Schemas['ReviewRegionPatch'];
export type ArticlePatch = Schemas['ReviewArticlePatch'];
export type BulkAction = Schemas['Bulk-regionsRequest']['action'];
/** An engine a page or one region can be read again with (Go's pipeline.Engines). */
export type RecognizeEngine = Schemas['RecognizeInBody']['engine'];
export type RecognizeBody = Schemas['RecognizeInBody'];
/** A page read again (page set) or one region read again (region set). */
export type Recognized = Schemas['RecognizeOutBody'];

const regionPath = '/api/magazine/{doc}/pages/{page}/regions/{block_id}';
const regionParams = (doc: string, page: number, id: string) => ({ doc, page, block_id: id });

export const reviewApi = {
  patch: (doc: string, page: number, id: string, body: RegionPatch) => call('patch', regionPath, regionParams(doc, page, id), body),
  remove: (doc: string, page: number, id: string) => call('delete', regionPath, regionParams(doc, page, id)),
  split: (doc: string, page: number, id: string, offset: number) =>
    call('post', `${regionPath}/split`, regionParams(doc, page, id), { offset }),
  mergeNext: (doc: string, page: number, id: string) => call('post', `${regionPath}/merge-next`, regionParams(doc, page, id)),
  add: (doc: string, page: number, bbox: BBox, kind: RegionKind) =>
    call('post', '/api/magazine/{doc}/pages/{page}/regions', { doc, page }, { bbox, kind }),
  bulk: (doc: string, page: number, ids: string[], action: BulkAction, kind?: RegionKind) =>
    call('post', '/api/magazine/{doc}/pages/{page}/regions/bulk', { doc, page }, { ids, action, kind }),
  setOrder: (doc: string, page: number, ids: string[]) => call('put', '/api/magazine/{doc}/pages/{page}/order', { doc, page }, { ids }),
  autoOrder: (doc: string, page: number) => call('delete', '/api/magazine/{doc}/pages/{page}/order', { doc, page }),
  /** Reads the page (or one region) again with one engine; version is the page version shown. */
  recognize: (doc: string, page: number, version: number, engine: RecognizeEngine, regionId = '') =>
    callIfMatch(version, 'post', '/api/magazine/{doc}/pages/{page}/recognize', { doc, page }, recognizeBody(engine, regionId)),
  undo: (doc: string, token: string) => call('post', '/api/magazine/{doc}/undo', { doc }, { token }),
  articles: (doc: string) => call('get', '/api/magazine/{doc}/articles', { doc }).then((r) => r.articles ?? []),
  createArticle: (doc: string, title: string, regions: RegionRef[]) =>
    call('post', '/api/magazine/{doc}/articles', { doc }, { title, regions }),
  updateArticle: (doc: string, id: string, patch: ArticlePatch) =>
    call('patch', '/api/magazine/{doc}/articles/{article}', { doc, article: id }, patch),
  approve: (doc: string, id: string, regions: RegionRef[], images: RegionRef[]) =>
    call('post', '/api/magazine/{doc}/articles/{article}/approve', { doc, article: id }, { regions, images }),
};

/** The Undo button's token after an outcome: a new token, cleared, or unchanged. */
export function nextUndo(current: string, o: Outcome): string {
  if (o.undo_token) return o.undo_token;
  if (o.undo_cleared) return '';
  return current;
}

/** Selection after an edit: deleted ids leave it, a split adds its new part,
 *  a merge keeps the survivor, a text→image change keeps the picture. */
export function followSelection(selected: string[], change: { removed?: string[]; added?: string[] }): string[] {
  const removed = new Set(change.removed ?? []);
  const out = selected.filter((id) => !removed.has(id));
  for (const id of change.added ?? []) if (!out.includes(id)) out.push(id);
  return out;
}

/** Click selection: a plain click selects one region, shift-click toggles it. */
export function clickSelect(selected: string[], id: string, shift: boolean): string[] {
  if (!shift) return [id];
  return selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id];
}

/** Regions whose box lies inside the rectangle (points) — rectangle selection. */
export function inRectangle(regions: Region[], r: BBox): string[] {
  const [x, y, w, h] = normalise(r);
  return regions
    .filter((g) => g.bbox[0] >= x && g.bbox[1] >= y && g.bbox[0] + g.bbox[2] <= x + w && g.bbox[1] + g.bbox[3] <= y + h)
    .map((g) => g.id);
}

/** A rectangle dragged in any direction, as [x, y, w, h] with w, h ≥ 0. */
export function normalise(r: BBox): BBox {
  const [x, y, w, h] = r;
  return [Math.min(x, x + w), Math.min(y, y + h), Math.abs(w), Math.abs(h)];
}

/** Move or resize a box by a drag of (dx, dy) points from a handle; the box
 *  stays inside the page and at least 4 points on a side. */
export function dragBox(b: BBox, handle: 'move' | 'nw' | 'ne' | 'sw' | 'se', dx: number, dy: number, page: { width: number; height: number }): BBox {
  let [x0, y0, x1, y1] = [b[0], b[1], b[0] + b[2], b[1] + b[3]];
  if (handle === 'move') {
    const mx = Math.min(Math.max(dx, -x0), page.width - x1);
    const my = Math.min(Math.max(dy, -y0), page.height - y1);
    return [x0 + mx, y0 + my, b[2], b[3]];
  }
  if (handle.includes('w')) x0 = Math.min(Math.max(0, x0 + dx), x1 - 4);
  if (handle.includes('e')) x1 = Math.max(Math.min(page.width, x1 + dx), x0 + 4);
  if (handle.includes('n')) y0 = Math.min(Math.max(0, y0 + dy), y1 - 4);
  if (handle.includes('s')) y1 = Math.max(Math.min(page.height, y1 + dy), y0 + 4);
  return [x0, y0, x1 - x0, y1 - y0];
}

/** True when a key press belongs to a text field, never to a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const el = target as HTMLElement;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

/** The review page's shortcuts, shown in the UI. */
export const SHORTCUTS: { key: string; action: string }[] = [
  { key: 'Delete / Backspace', action: 'delete the selection' },
  { key: 'u', action: 'undo the last change' },
  { key: 'm', action: 'merge the selected region with the next' },
  { key: 'i', action: 'make the selection a picture' },
  { key: 't', action: 'make the selection a paragraph' },
  { key: 'o', action: 'reading-order mode on/off' },
  { key: 'Escape', action: 'clear the selection' },
];

/** Which action a key press outside text fields asks for, if any. */
export function shortcut(e: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean; target: EventTarget | null }): string {
  if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return '';
  switch (e.key) {
    case 'Delete':
    case 'Backspace':
      return 'delete';
    case 'u':
      return 'undo';
    case 'm':
      return 'merge';
    case 'i':
      return 'to-image';
    case 't':
      return 'to-text';
    case 'o':
      return 'order-mode';
    case 'Escape':
      return 'clear';
  }
  return '';
}

/** Reading order after typing a position (1-based) for one region. */
export function moveToPosition(order: string[], id: string, position: number): string[] {
  const rest = order.filter((x) => x !== id);
  const at = Math.min(Math.max(position - 1, 0), rest.length);
  return [...rest.slice(0, at), id, ...rest.slice(at)];
}

/** Approval payload: only refs to regions that exist now (pages as loaded). */
export function existingRefs(refs: RegionRef[], pages: Map<number, Page>): RegionRef[] {
  return refs.filter((r) => {
    const p = pages.get(r.page);
    return !p || p.regions.some((g) => g.id === r.region);
  });
}

/** The engines offered for reading again, in the OCR chain's order. */
export const ENGINES: readonly RecognizeEngine[] = recognizeInBodyEngineValues;

const ENGINE_LABELS: Record<RecognizeEngine, string> = {
  'text-layer': 'PDF text layer',
  'vision-primary': 'Vision OCR (primary)',
  'vision-fallback': 'Vision OCR (fallback)',
  tesseract: 'Tesseract',
};

/** An engine's name as the review page shows it; a name it does not know is shown as it is. */
export function engineLabel(engine: string | undefined): string {
  if (!engine) return 'no engine recorded';
  return (ENGINE_LABELS as Record<string, string>)[engine] ?? engine;
}

/** Picture kinds: their words are a description, so they are never read again. */
const PICTURE_KINDS: ReadonlySet<string> = new Set(['image', 'figure', 'chart', 'table', 'code']);

/** Whether a region's box can be read again for its text (text regions only). */
export function canReread(r: Region): boolean {
  return !PICTURE_KINDS.has(r.kind);
}

/** The request body: the whole page, or only one region's box. */
export function recognizeBody(engine: RecognizeEngine, regionId = ''): RecognizeBody {
  return regionId ? { engine, region_id: regionId } : { engine };
}

/** What the review page says once a page or region was read again. */
export function recognizedNote(o: Recognized): string {
  const by = engineLabel(o.engine);
  if (o.region) return `Region ${o.region.id} read again with ${by}.`;
  const n = o.page?.regions?.length ?? 0;
  return `Page read again with ${by}: ${n} region${n === 1 ? '' : 's'}.`;
}
