// A zoomed page stays sharp: the part in view is drawn again by the server
// (GET …/pages/{page}/view) at the zoom's resolution and laid over the
// page's render, which is only drawn at the ingest's DPI.
import { apiUrl, authHeaders, problemFrom } from '../api';
import type { View } from '../review';

/** A part of the page in points and the DPI it is drawn at. */
export type Area = { x: number; y: number; w: number; h: number; dpi: number };

/** The server's limits (GET …/view refuses more with a 422). */
export const MAX_VIEW_DPI = 600;
export const MAX_VIEW_PIXELS = 16_000_000;
/** What the client asks for at most: room under the server's area cap. */
const WANT_PIXELS = 12_000_000;

/**
 * The area worth drawing for a view: what is in view, padded by a quarter
 * of it each side (a small pan needs no new drawing), on an 8-point grid
 * (the same area is asked for again, and cached), at one device pixel per
 * pixel on screen. null when the page's own render is sharp enough.
 * `inView` is the unpadded part a drawing must cover to be of use.
 */
export function sharpArea(
  v: View,
  stage: { w: number; h: number },
  page: { width: number; height: number },
  dpr: number,
  renderDPI: number,
): { area: Area; inView: Area } | null {
  if (v.z <= 1 || stage.w <= 0 || stage.h <= 0 || page.width <= 0 || page.height <= 0) return null;
  const want = Math.ceil((72 * (stage.w / page.width) * v.z * Math.max(dpr, 1)) / 24) * 24;
  if (want <= renderDPI) return null;
  const [kx, ky] = [page.width / stage.w, page.height / stage.h];
  const x0 = (-v.x / v.z) * kx;
  const y0 = (-v.y / v.z) * ky;
  const [w, h] = [(stage.w / v.z) * kx, (stage.h / v.z) * ky];
  const grid = 8;
  const clampX = (n: number) => Math.min(Math.max(n, 0), page.width);
  const clampY = (n: number) => Math.min(Math.max(n, 0), page.height);
  const ax = Math.floor(clampX(x0 - w / 4) / grid) * grid;
  const ay = Math.floor(clampY(y0 - h / 4) / grid) * grid;
  const aw = Math.min(Math.ceil(clampX(x0 + w * 1.25) / grid) * grid, Math.floor(page.width)) - ax;
  const ah = Math.min(Math.ceil(clampY(y0 + h * 1.25) / grid) * grid, Math.floor(page.height)) - ay;
  if (aw <= 0 || ah <= 0) return null;
  // A huge area is drawn a little coarser rather than refused.
  const fit = Math.floor((72 * Math.sqrt(WANT_PIXELS / (aw * ah))) / 12) * 12;
  const dpi = Math.min(want, MAX_VIEW_DPI, fit);
  if (dpi <= renderDPI) return null;
  return { area: { x: ax, y: ay, w: aw, h: ah, dpi }, inView: { x: x0, y: y0, w, h, dpi } };
}

/** Whether a drawn area still serves what is in view: it covers it at (at least) its DPI. */
export function covers(drawn: Area, inView: Area): boolean {
  const e = 0.5;
  return (
    drawn.dpi >= inView.dpi &&
    drawn.x <= inView.x + e &&
    drawn.y <= inView.y + e &&
    drawn.x + drawn.w >= inView.x + inView.w - e &&
    drawn.y + drawn.h >= inView.y + inView.h - e
  );
}

/** The view route's URL for an area of a page. */
export function viewUrl(doc: string, page: number, a: Area): string {
  const q = new URLSearchParams({ dpi: String(a.dpi), x: String(a.x), y: String(a.y), w: String(a.w), h: String(a.h) });
  return `${apiUrl('/api/magazine/{doc}/pages/{page}/view', { doc, page })}?${q}`;
}

/** Draws an area; the picture as an object URL (revoke it when replaced). */
export async function fetchView(doc: string, page: number, a: Area, signal?: AbortSignal): Promise<string> {
  const resp = await fetch(viewUrl(doc, page, a), { headers: authHeaders(), signal });
  if (!resp.ok) throw problemFrom(resp.status, await resp.text());
  return URL.createObjectURL(await resp.blob());
}
