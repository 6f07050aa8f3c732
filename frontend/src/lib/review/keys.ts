// The review workspace's keyboard rules that need no page: nudging the
// selected box with the arrow keys, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, and the
// client's redo stack beside the server's one-level undo.
import type { BBox } from '../magazine';
import { dragBox, isTyping } from '../review';

/** A nudge step in page points (1 point is a pixel at the page's own scale). */
export const NUDGE = 1;
/** The step with Alt held. */
export const NUDGE_BIG = 10;
/** How long arrow presses gather before the box is saved (one save, one undo point). */
export const NUDGE_SAVE_MS = 400;

export type Nudge = { dx: number; dy: number; resize: boolean };

type KeyLike = { key: string; shiftKey?: boolean; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean; target: EventTarget | null };

/** What an arrow key asks of the selected box: a move, or with Shift a resize
 *  (→/↓ grow it, ←/↑ shrink it); null for any other key or inside a text field. */
export function arrowNudge(e: KeyLike): Nudge | null {
  if (isTyping(e.target) || e.ctrlKey || e.metaKey) return null;
  const step = e.altKey ? NUDGE_BIG : NUDGE;
  const d = ({ ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] } as Record<string, [number, number]>)[e.key];
  if (!d) return null;
  return { dx: d[0] * step, dy: d[1] * step, resize: !!e.shiftKey };
}

/** The box after a nudge: kept on the page and at least 4 points a side
 *  (the rules of dragging it with the mouse). */
export function nudgeBox(b: BBox, n: Nudge, page: { width: number; height: number }): BBox {
  return dragBox(b, n.resize ? 'se' : 'move', n.dx, n.dy, page);
}

/** Ctrl/⌘+Z undoes; Ctrl/⌘+Shift+Z and Ctrl+Y redo. In a text field the
 *  browser's own undo of the typing wins. */
export function historyKey(e: KeyLike): 'undo' | 'redo' | '' {
  if (isTyping(e.target) || !(e.ctrlKey || e.metaKey) || e.altKey) return '';
  const k = e.key.toLowerCase();
  if (k === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (k === 'y' && !e.shiftKey) return 'redo';
  return '';
}

/**
 * The client's history of edits: the last edit the server can undo (its one
 * level), and the edits undone since, newest last, each with what sends it
 * again. A new edit empties the redo stack, as in any editor.
 */
export type History<E> = { last: E | null; redo: E[] };

export const emptyHistory = <E>(): History<E> => ({ last: null, redo: [] });

/** A new edit with an undo point was saved. */
export function edited<E>(_h: History<E>, e: E | null): History<E> {
  return { last: e, redo: [] };
}

/** The server undid the last edit: it can be redone. */
export function undone<E>(h: History<E>): History<E> {
  return h.last ? { last: null, redo: [...h.redo, h.last] } : { last: null, redo: h.redo };
}

/** The edit to send again for a redo, and the history once it is saved
 *  (it is the last edit again; older undone edits stay redoable). */
export function redoing<E>(h: History<E>): { edit: E; after: History<E> } | null {
  const edit = h.redo.at(-1);
  if (edit === undefined) return null;
  return { edit, after: { last: edit, redo: h.redo.slice(0, -1) } };
}
