import { describe, expect, it } from 'vitest';
import { headerRows, placeCells, type Table } from '../src/lib/review';

// The grid the review shows must name the same slots as the server's
// table edits (Go's magazine.Table.layout): a spanning cell covers slots
// the rows below do not list again.
describe('placeCells', () => {
  const table: Table = {
    rows: [
      [{ text: 'Item', header: true, row_span: 2 }, { text: 'Cost', header: true, col_span: 2 }],
      [{ text: '1900', header: true }, { text: '1910', header: true }],
      [{ text: 'Bread' }, { text: '$1' }, { text: '$2' }],
    ],
  };
  it('places each cell at the first free slot of its row', () => {
    const { rows, width } = placeCells(table);
    expect(width).toBe(3);
    expect(rows.map((row) => row.map((c) => [c.text, c.row, c.col, c.rowSpan, c.colSpan]))).toEqual([
      [['Item', 0, 0, 2, 1], ['Cost', 0, 1, 1, 2]],
      [['1900', 1, 1, 1, 1], ['1910', 1, 2, 1, 1]],
      [['Bread', 2, 0, 1, 1], ['$1', 2, 1, 1, 1], ['$2', 2, 2, 1, 1]],
    ]);
  });
  it('counts the leading rows that are all headings', () => {
    expect(headerRows(table)).toBe(2);
    expect(headerRows({ rows: [[{ text: 'a' }]] })).toBe(0);
  });
});
