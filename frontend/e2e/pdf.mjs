// Writes small text PDFs for the browser tests: Helvetica lines at known
// positions, with a correct cross-reference table.

/** pages: [{ lines: [{ x, top, size, bold, text }] }] in points from the top-left. */
export function makePDF(pages) {
  const objs = [];
  const add = (s) => objs.push(s) && objs.length;
  const catalog = add('');
  const root = add('');
  const f1 = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const f2 = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const kids = [];
  for (const p of pages) {
    const ops = p.lines
      .map((l) => {
        const text = l.text.replace(/[\\()]/g, (c) => '\\' + c);
        return `BT /${l.bold ? 'F2' : 'F1'} ${l.size} Tf ${l.x} ${792 - l.top - l.size * 0.8} Td (${text}) Tj ET`;
      })
      .join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${root} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${f1} 0 R /F2 ${f2} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objs[catalog - 1] = `<< /Type /Catalog /Pages ${root} 0 R >>`;
  objs[root - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let out = '%PDF-1.7\n';
  const offsets = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A three-page article with a running head, columns and a hostile note. */
export function samplePDF() {
  const heads = ['Harbour Reborn', 'Storm Season Ahead', 'The Lighthouse Keepers'];
  const authors = ['By Ada Lovelace', 'By Mary Somerville', 'By Caroline Herschel'];
  return makePDF(
    heads.map((head, i) => ({
      lines: [
        { x: 72, top: 30, size: 8, text: 'THE HARBOUR GAZETTE' },
        { x: 72, top: 60, size: 26, bold: true, text: head },
        { x: 72, top: 100, size: 10, text: authors[i] },
        ...Array.from({ length: 8 }, (_, j) => ({ x: 72, top: 130 + j * 12, size: 10, text: `Left column ${i + 1} about the bay, line ${j + 1}` })),
        ...Array.from({ length: 8 }, (_, j) => ({ x: 330, top: 130 + j * 12, size: 10, text: `Right column ${i + 1} at the quay, line ${j + 1}` })),
        { x: 72, top: 300, size: 10, text: `A note ${i + 1} with <script>alert(1)</script> for the preview.` },
        { x: 300, top: 760, size: 9, text: `Page ${i + 1}` },
      ],
    })),
  );
}
