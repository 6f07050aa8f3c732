import { describe, expect, it } from 'vitest';
import { clickSelect, dragBox, existingRefs, followSelection, inRectangle, moveToPosition, nextUndo, refineNote, refineProgress, refineResult, shortcut } from '../src/lib/review';
import type { Page, Region } from '../src/lib/magazine';

const r = (id: string, bbox: [number, number, number, number]): Region => ({ id, kind: 'paragraph', bbox });

describe('review rules', () => {
  it('the Undo button follows the server', () => {
    expect(nextUndo('', { undo_token: 'tok', revision: 2 })).toBe('tok');
    expect(nextUndo('tok', { undo_cleared: true, revision: 3 })).toBe('');
    expect(nextUndo('tok', { revision: 3 })).toBe('tok');
  });

  it('the selection follows deletes, merges and splits', () => {
    expect(followSelection(['a', 'b', 'c'], { removed: ['b'] })).toEqual(['a', 'c']);
    expect(followSelection(['a'], { added: ['a2'] })).toEqual(['a', 'a2']);
    expect(followSelection(['a', 'b'], { removed: ['b'], added: [] })).toEqual(['a']);
  });

  it('click selects one, shift-click toggles', () => {
    expect(clickSelect(['a', 'b'], 'c', false)).toEqual(['c']);
    expect(clickSelect(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(clickSelect(['a', 'b'], 'a', true)).toEqual(['b']);
  });

  it('rectangle selection takes whole boxes, dragged either way', () => {
    const regions = [r('a', [10, 10, 10, 10]), r('b', [30, 10, 10, 10]), r('c', [10, 40, 50, 10])];
    expect(inRectangle(regions, [5, 5, 40, 20])).toEqual(['a', 'b']);
    expect(inRectangle(regions, [45, 25, -40, -20])).toEqual(['a', 'b']);
  });

  it('drags move within the page and resize with a minimum size', () => {
    const page = { width: 100, height: 100 };
    expect(dragBox([10, 10, 20, 20], 'move', 200, -50, page)).toEqual([80, 0, 20, 20]);
    expect(dragBox([10, 10, 20, 20], 'se', 5, 5, page)).toEqual([10, 10, 25, 25]);
    expect(dragBox([10, 10, 20, 20], 'nw', 30, 30, page)).toEqual([26, 26, 4, 4]);
  });

  it('letters typed in a text field never trigger shortcuts', () => {
    const input = { tagName: 'INPUT' } as unknown as EventTarget;
    const textarea = { tagName: 'TEXTAREA' } as unknown as EventTarget;
    const svg = { tagName: 'svg' } as unknown as EventTarget;
    for (const key of ['u', 'm', 'i', 't', 'o', 'Delete', 'Backspace']) {
      expect(shortcut({ key, target: input })).toBe('');
      expect(shortcut({ key, target: textarea })).toBe('');
    }
    expect(shortcut({ key: 'u', target: svg })).toBe('undo');
    expect(shortcut({ key: 'u', ctrlKey: true, target: svg })).toBe('');
    expect(shortcut({ key: 'x', target: svg })).toBe('');
  });

  it('typing a position moves one region in the order', () => {
    expect(moveToPosition(['a', 'b', 'c', 'd'], 'd', 1)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveToPosition(['a', 'b', 'c'], 'a', 9)).toEqual(['b', 'c', 'a']);
  });

  it('approval sends only regions that exist', () => {
    const page = { number: 1, regions: [r('a', [0, 0, 1, 1])] } as unknown as Page;
    const pages = new Map([[1, page]]);
    expect(existingRefs([{ page: 1, region: 'a' }, { page: 1, region: 'gone' }], pages)).toEqual([{ page: 1, region: 'a' }]);
  });
});

describe('figure refinement job', () => {
  it('reads the job result and says which pages changed', () => {
    const r = refineResult({ pages_changed: 2, pages: [2, 5], revision: 9, undo_cleared: true });
    expect(r).toEqual({ pages_changed: 2, pages: [2, 5], revision: 9, undo_cleared: true });
    expect(refineNote(r)).toBe('Figures refined: 2 page(s) changed (2, 5).');
    expect(refineNote(refineResult({ pages_changed: 0, pages: null, revision: 3 }))).toBe('Figures refined: 0 page(s) changed.');
    expect(refineResult(undefined)).toEqual({ pages_changed: 0, pages: [], revision: 0, undo_cleared: false });
  });
  it('shows the page the job is on', () => {
    expect(refineProgress('refining page 3 of 12')).toBe('Refining figures: page 3 of 12…');
    expect(refineProgress('')).toBe('Refining figures on every page…');
    expect(refineProgress(undefined)).toBe('Refining figures on every page…');
  });
});
