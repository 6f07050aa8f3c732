import { describe, expect, it } from 'vitest';
import { arrowNudge, edited, emptyHistory, historyKey, nudgeBox, redoing, undone, NUDGE_BIG } from '../src/lib/review/keys';

const body = { tagName: 'BODY', isContentEditable: false } as unknown as EventTarget;
const textarea = { tagName: 'TEXTAREA', isContentEditable: false } as unknown as EventTarget;
const numberField = { tagName: 'INPUT', isContentEditable: false } as unknown as EventTarget;
const page = { width: 600, height: 800 };

describe('arrow keys on the selected box', () => {
  it('move by one point, by ten with Alt, and resize with Shift', () => {
    expect(arrowNudge({ key: 'ArrowRight', target: body })).toEqual({ dx: 1, dy: 0, resize: false });
    expect(arrowNudge({ key: 'ArrowUp', altKey: true, target: body })).toEqual({ dx: 0, dy: -NUDGE_BIG, resize: false });
    expect(arrowNudge({ key: 'ArrowLeft', shiftKey: true, target: body })).toEqual({ dx: -1, dy: 0, resize: true });
  });

  it('never fire in a text field, with Ctrl, or for other keys', () => {
    expect(arrowNudge({ key: 'ArrowRight', target: textarea })).toBeNull();
    expect(arrowNudge({ key: 'ArrowDown', target: numberField })).toBeNull();
    expect(arrowNudge({ key: 'ArrowRight', ctrlKey: true, target: body })).toBeNull();
    expect(arrowNudge({ key: 'x', target: body })).toBeNull();
  });

  it('a move keeps the size and stays on the page; a resize grows from the bottom-right corner', () => {
    expect(nudgeBox([10, 20, 100, 50], { dx: 1, dy: 0, resize: false }, page)).toEqual([11, 20, 100, 50]);
    expect(nudgeBox([0, 20, 100, 50], { dx: -10, dy: 0, resize: false }, page)).toEqual([0, 20, 100, 50]);
    expect(nudgeBox([10, 20, 100, 50], { dx: 0, dy: 10, resize: true }, page)).toEqual([10, 20, 100, 60]);
    expect(nudgeBox([10, 20, 5, 50], { dx: -10, dy: 0, resize: true }, page)).toEqual([10, 20, 4, 50]);
    expect(nudgeBox([500, 20, 100, 50], { dx: 1, dy: 0, resize: true }, page)).toEqual([500, 20, 100, 50]);
  });
});

describe('undo and redo keys', () => {
  it('Ctrl+Z undoes; Ctrl+Shift+Z and Ctrl+Y redo; ⌘ works like Ctrl', () => {
    expect(historyKey({ key: 'z', ctrlKey: true, target: body })).toBe('undo');
    expect(historyKey({ key: 'Z', ctrlKey: true, shiftKey: true, target: body })).toBe('redo');
    expect(historyKey({ key: 'y', ctrlKey: true, target: body })).toBe('redo');
    expect(historyKey({ key: 'z', metaKey: true, target: body })).toBe('undo');
  });

  it('leave a text field its own undo, and plain letters alone', () => {
    expect(historyKey({ key: 'z', ctrlKey: true, target: textarea })).toBe('');
    expect(historyKey({ key: 'z', target: body })).toBe('');
    expect(historyKey({ key: 'z', ctrlKey: true, altKey: true, target: body })).toBe('');
  });
});

describe('the redo stack beside the one-level server undo', () => {
  it('an undone edit can be redone, and is then the last edit again', () => {
    let h = edited(emptyHistory<string>(), 'move a');
    h = undone(h);
    expect(h).toEqual({ last: null, redo: ['move a'] });
    const r = redoing(h);
    expect(r?.edit).toBe('move a');
    h = r!.after;
    expect(h).toEqual({ last: 'move a', redo: [] });
    // Undo again after the redo: redoable again.
    expect(redoing(undone(h))?.edit).toBe('move a');
  });

  it('a new edit empties the redo stack; nothing to redo is null', () => {
    let h = undone(edited(emptyHistory<string>(), 'delete b'));
    h = edited(h, 'split c');
    expect(h.redo).toEqual([]);
    expect(redoing(h)).toBeNull();
    expect(redoing(emptyHistory())).toBeNull();
  });

  it('an edit without an undo point leaves nothing to undo or redo', () => {
    const h = edited(undone(edited(emptyHistory<string>(), 'delete b')), null);
    expect(h).toEqual({ last: null, redo: [] });
    expect(undone(h)).toEqual({ last: null, redo: [] });
  });
});
