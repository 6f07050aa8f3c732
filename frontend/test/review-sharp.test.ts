import { describe, expect, it } from 'vitest';
import { covers, sharpArea, viewUrl, MAX_VIEW_DPI } from '../src/lib/review/sharp';

const page = { width: 612, height: 792 };
const stage = { w: 480, h: 621 }; // the page fitted: 0.78 px a point

describe('the sharp drawing of a zoomed page', () => {
  it('is not asked for while the page render is sharp enough', () => {
    expect(sharpArea({ z: 1, x: 0, y: 0 }, stage, page, 1, 150)).toBeNull();
    // ×2 on a 1× screen: 113 DPI, under the render's 150.
    expect(sharpArea({ z: 2, x: 0, y: 0 }, stage, page, 1, 150)).toBeNull();
  });

  it('covers what is in view, padded, at one device pixel a pixel', () => {
    const got = sharpArea({ z: 4, x: -480, y: -621 }, stage, page, 2, 150)!;
    // In view: x 153..306, y 198..396 points; 72 × 0.78 × 4 × 2 = 452 DPI, on a 24 grid.
    expect(got.inView.x).toBeCloseTo(153);
    expect(got.inView.w).toBeCloseTo(153);
    expect(got.area.dpi).toBe(456);
    expect(got.area.x).toBeLessThanOrEqual(got.inView.x - got.inView.w / 4);
    expect(got.area.x + got.area.w).toBeGreaterThanOrEqual(got.inView.x + got.inView.w * 1.25 - 8);
    expect(covers(got.area, got.inView)).toBe(true);
    expect(got.area.x % 8).toBe(0);
  });

  it('stays on the page, under the DPI cap and under the pixel budget', () => {
    const got = sharpArea({ z: 8, x: 0, y: 0 }, stage, page, 3, 150)!;
    expect(got.area.x).toBe(0);
    expect(got.area.y).toBe(0);
    expect(got.area.dpi).toBeLessThanOrEqual(MAX_VIEW_DPI);
    expect(((got.area.w * got.area.dpi) / 72) * ((got.area.h * got.area.dpi) / 72)).toBeLessThanOrEqual(12_000_000);
  });

  it('a drawing no longer serves a view it does not cover or is coarser than', () => {
    const drawn = { x: 100, y: 100, w: 200, h: 200, dpi: 300 };
    expect(covers(drawn, { x: 120, y: 120, w: 100, h: 100, dpi: 300 })).toBe(true);
    expect(covers(drawn, { x: 250, y: 120, w: 100, h: 100, dpi: 300 })).toBe(false);
    expect(covers(drawn, { x: 120, y: 120, w: 100, h: 100, dpi: 400 })).toBe(false);
  });

  it('asks the view route for exactly that area', () => {
    expect(viewUrl('abcdefgh12', 3, { x: 8, y: 16, w: 200, h: 100, dpi: 288 })).toBe('api/magazine/abcdefgh12/pages/3/view?dpi=288&x=8&y=16&w=200&h=100');
  });
});
