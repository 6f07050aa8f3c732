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

/** A table region's cells and one change to them (Go's magazine.Table, magazine.TableEdit). */
export type Table = Schemas['MagazineTable'];
export type TableEdit = Schemas['MagazineTableEdit'];

const regionPath = '/api/magazine/{doc}/pages/{page}/regions/{block_id}';
const regionParams = (doc: string, page: number, id: string) => ({ doc, page, block_id: id });
const pagePath = '/api/magazine/{doc}/pages/{page}';

// Every page-scoped edit carries the version of the page shown as If-Match:
// an edit of a page that changed since (or of a page the user is not looking
// at) answers 409 instead of landing.
export const reviewApi = {
  patch: (doc: string, page: number, version: number, id: string, body: RegionPatch) =>
    callIfMatch(version, 'patch', regionPath, regionParams(doc, page, id), body),
  remove: (doc: string, page: number, version: number, id: string) => callIfMatch(version, 'delete', regionPath, regionParams(doc, page, id)),
  /** Changes a table region's cells (its text follows them). */
  editTable: (doc: string, page: number, version: number, id: string, body: TableEdit) =>
    callIfMatch(version, 'patch', `${regionPath}/table`, regionParams(doc, page, id), body),
  split: (doc: string, page: number, version: number, id: string, offset: number) =>
    callIfMatch(version, 'post', `${regionPath}/split`, regionParams(doc, page, id), { offset }),
  mergeNext: (doc: string, page: number, version: number, id: string) =>
    callIfMatch(version, 'post', `${regionPath}/merge-next`, regionParams(doc, page, id)),
  add: (doc: string, page: number, version: number, bbox: BBox, kind: RegionKind) =>
    callIfMatch(version, 'post', `${pagePath}/regions`, { doc, page }, { bbox, kind }),
  bulk: (doc: string, page: number, version: number, ids: string[], action: BulkAction, kind?: RegionKind) =>
    callIfMatch(version, 'post', `${pagePath}/regions/bulk`, { doc, page }, { ids, action, kind }),
  setOrder: (doc: string, page: number, version: number, ids: string[]) => callIfMatch(version, 'put', `${pagePath}/order`, { doc, page }, { ids }),
  autoOrder: (doc: string, page: number, version: number) => callIfMatch(version, 'delete', `${pagePath}/order`, { doc, page }),
  /** Cleans up the page's boxes; the server keeps a layout backup first. */
  cleanup: (doc: string, page: number, version: number) => callIfMatch(version, 'post', `${pagePath}/cleanup`, { doc, page }),
  /** Puts back the layout saved before the last cleanup. */
  restore: (doc: string, page: number, version: number) => callIfMatch(version, 'post', `${pagePath}/cleanup/restore`, { doc, page }),
  /** Reads the page (or one region) again with one engine; version is the page version shown. */
  recognize: (doc: string, page: number, version: number, engine: RecognizeEngine, regionId = '') =>
    callIfMatch(version, 'post', `${pagePath}/recognize`, { doc, page }, recognizeBody(engine, regionId)),
  /** Re-reads the reading order of every page of the issue (hand-ordered pages are left alone). */
  fixOrder: (doc: string) => call('post', '/api/magazine/{doc}/fix-order', { doc }, {}),
  /** Proposes the issue's articles afresh from its headlines (accepted and hand-made articles stay). */
  proposeArticles: (doc: string) => call('post', '/api/magazine/{doc}/propose-articles', { doc }),
  /** Accepts (approves), splits before a region, merges with the next proposal, or dissolves a proposed article. */
  reviewProposal: (doc: string, article: string, body: Schemas['ReviewapiProposalAction']) =>
    call('post', '/api/magazine/{doc}/articles/{article}/proposal', { doc, article }, body),
  /** Starts figure refinement of the whole issue as a background job. */
  refineFigures: (doc: string) => call('post', '/api/magazine/{doc}/figures/refine', { doc }),
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

/** What a figure refinement job did (its result; Go's issues.Refined). */
export type Refined = { pages_changed: number; pages: number[]; revision: number; undo_cleared: boolean };

/** A refinement job's result, read defensively (its shape is the job kind's). */
export function refineResult(result: unknown): Refined {
  const r = (result ?? {}) as Partial<Refined> & { pages?: number[] | null };
  const pages = r.pages ?? [];
  return { pages_changed: r.pages_changed ?? pages.length, pages, revision: r.revision ?? 0, undo_cleared: r.undo_cleared ?? false };
}

/** The busy line while a refinement job runs: its page n of m when it said one. */
export function refineProgress(message = ''): string {
  const m = /page (\d+) of (\d+)/.exec(message);
  return m ? `Refining figures: page ${m[1]} of ${m[2]}…` : 'Refining figures on every page…';
}

/** What the workspace says once a refinement job succeeded. */
export const refineNote = (r: Refined) =>
  `Figures refined: ${r.pages_changed} page(s) changed${r.pages.length ? ` (${r.pages.join(', ')})` : ''}.`;

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
  { key: 'u, Ctrl + Z', action: 'undo the last change' },
  { key: 'Ctrl + Shift + Z, Ctrl + Y', action: 'redo what was undone' },
  { key: '← ↑ → ↓', action: 'move the selected box 1 point (Alt: 10)' },
  { key: 'Shift + arrows', action: 'resize the selected box (Alt: 10 points)' },
  { key: 'm', action: 'merge the selected region with the next' },
  { key: 'i', action: 'make the selection a picture' },
  { key: 't', action: 'make the selection a paragraph' },
  { key: 'o', action: 'reading-order mode on/off' },
  { key: 'Escape', action: 'clear the selection' },
  { key: '+ / - / 0', action: 'zoom in, out, back to fit' },
  { key: 'Space + drag, middle button', action: 'pan the zoomed page' },
  { key: 'Ctrl + wheel, pinch', action: 'zoom at the pointer' },
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
    case '+':
    case '=':
      return 'zoom-in';
    case '-':
      return 'zoom-out';
    case '0':
      return 'zoom-fit';
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
export function recognizedNote(o: Recognized, regionLabel = ''): string {
  const by = engineLabel(o.engine);
  if (o.region) return `${regionLabel ? capitalise(regionLabel) : `Region ${o.region.id}`} read again with ${by}.`;
  const n = o.page?.regions?.length ?? 0;
  return `Page read again with ${by}: ${n} region${n === 1 ? '' : 's'}.`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Each region's name as the page shows it: its kind and its place among the
 *  regions of that kind in reading order ("paragraph 3"), never its id. */
export function regionLabels(inOrder: Region[]): Map<string, string> {
  const seen = new Map<string, number>();
  const out = new Map<string, string>();
  for (const r of inOrder) {
    const n = (seen.get(r.kind) ?? 0) + 1;
    seen.set(r.kind, n);
    out.set(r.id, `${r.kind} ${n}`);
  }
  return out;
}

/** An article member as a reader finds it: "paragraph 3 on p. 4"; a region
 *  that is gone (or a page not loaded) still says which page it was on. */
export function memberLabel(ref: RegionRef, labels: Map<number, Map<string, string>>): string {
  const page = labels.get(ref.page);
  if (!page) return `a region on p. ${ref.page}`;
  return `${page.get(ref.region) ?? 'a removed region'} on p. ${ref.page}`;
}

/** Whether an article was approved and then changed (the server withdraws
 *  approval on any change to it or its regions). */
export function changedSinceApproval(a: Article): boolean {
  return a.changed_since_approval;
}

/** Where focus goes once a saved field's page is redrawn. Focus returns to the
 *  saved field only if the redraw dropped it (nothing focused) and the user did
 *  nothing since: a click or Tab elsewhere is where the user wants to be. */
export function refocusSaved(active: string, saved: string, interacted: boolean): boolean {
  return active === '' && !interacted && saved !== '';
}

/** Text drafts after a reload: a draft the user changed and has not saved yet
 *  stays (a reload never eats typing); others take the server's text. Ids in
 *  discard take the server's text even if changed (an edit the server refused). */
export function mergeDrafts(
  shownText: Record<string, string>,
  drafts: Record<string, string>,
  next: Region[],
  discard: string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of next) {
    const d = drafts[r.id];
    const dirty = d !== undefined && d !== (shownText[r.id] ?? '') && !discard.includes(r.id);
    out[r.id] = dirty ? d : (r.text ?? '');
  }
  return out;
}

/** A page-scoped edit refused because the page changed since it was shown. */
export const CONFLICT_NOTE = 'This page changed elsewhere; it has been reloaded — your change was not applied.';

/** What an on-demand cleanup did, in a sentence. */
export function cleanupNote(changes: { region_id: string; from: string; to: string; rule: string; new_region_id?: string }[], labels: Map<string, string>): string {
  if (!changes.length) return 'Clean up: nothing to change; a layout backup was kept.';
  const parts = changes.slice(0, 4).map((c) => {
    const what = labels.get(c.new_region_id ?? '') ?? labels.get(c.region_id) ?? `a ${c.from}`;
    return c.from === c.to ? `${what} (${c.rule})` : `${what}: ${c.from} → ${c.to} (${c.rule})`;
  });
  const more = changes.length > 4 ? `, and ${changes.length - 4} more` : '';
  return `Cleaned up ${changes.length} box${changes.length === 1 ? '' : 'es'}: ${parts.join('; ')}${more}. Restore layout backup undoes it.`;
}

/** What Fix reading order did across the issue. */
export function fixOrderNote(changed: number[], skipped: number[]): string {
  const c = changed.length ? `Reading order fixed on ${plural(changed.length, 'page')} (${changed.join(', ')})` : 'Reading order: no page needed fixing';
  const s = skipped.length ? `; ${plural(skipped.length, 'hand-ordered page')} left alone (${skipped.join(', ')})` : '';
  return `${c}${s}.`;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The zoomed page: scale z (1 = fitted) and the shift (x, y) of its top-left
 *  corner in the stage, in CSS pixels. */
export type View = { z: number; x: number; y: number };
export const FIT: View = { z: 1, x: 0, y: 0 };
export const MAX_ZOOM = 8;

/** The view zoomed by factor around a stage point (cx, cy), which stays under
 *  the pointer; the page never leaves a gap inside a stage of w × h. */
export function zoomAt(v: View, factor: number, cx: number, cy: number, w: number, h: number): View {
  const z = Math.min(Math.max(v.z * factor, 1), MAX_ZOOM);
  const k = z / v.z;
  return clampView({ z, x: cx - (cx - v.x) * k, y: cy - (cy - v.y) * k }, w, h);
}

/** The view shifted by (dx, dy) pixels, kept on the page. */
export function panBy(v: View, dx: number, dy: number, w: number, h: number): View {
  return clampView({ z: v.z, x: v.x + dx, y: v.y + dy }, w, h);
}

export function clampView(v: View, w: number, h: number): View {
  const clamp = (a: number, lo: number) => Math.min(0, Math.max(lo, a));
  return { z: v.z, x: clamp(v.x, w - w * v.z), y: clamp(v.y, h - h * v.z) };
}

/** Pixels per point that fit a page of pw × ph points in at most w × h pixels. */
export function fitScale(pw: number, ph: number, w: number, h: number): number {
  if (pw <= 0 || ph <= 0 || w <= 0) return 0;
  return h > 0 ? Math.min(w / pw, h / ph) : w / pw;
}

/** A table cell placed on its grid: row and col are the grid slot it starts at. */
export interface PlacedCell { text: string; row: number; col: number; rowSpan: number; colSpan: number; header: boolean }

/**
 * Places a table's cells on their grid as a browser lays out an HTML table
 * (each cell at the first free slot of its row), so an edit can name the
 * slot (Go's magazine.Table.layout). Returns the rows of placed cells and
 * the grid's width.
 */
export function placeCells(t: Table): { rows: PlacedCell[][]; width: number } {
  const taken = new Set<string>();
  let width = 0;
  const rows = (t.rows ?? []).map((row, r) => {
    let c = 0;
    return (row ?? []).map((cell) => {
      while (taken.has(`${r},${c}`)) c++;
      const rowSpan = Math.max(cell.row_span ?? 1, 1);
      const colSpan = Math.max(cell.col_span ?? 1, 1);
      for (let dr = 0; dr < rowSpan; dr++) for (let dc = 0; dc < colSpan; dc++) taken.add(`${r + dr},${c + dc}`);
      const placed = { text: cell.text, row: r, col: c, rowSpan, colSpan, header: cell.header ?? false };
      c += colSpan;
      width = Math.max(width, c);
      return placed;
    });
  });
  return { rows, width };
}

/** How many leading rows are all headings. */
export function headerRows(t: Table): number {
  let n = 0;
  for (const row of t.rows ?? []) {
    if (!row?.length || row.some((c) => !c.header)) break;
    n++;
  }
  return n;
}
