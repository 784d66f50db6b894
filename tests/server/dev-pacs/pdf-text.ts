import { inflateSync } from 'node:zlib';

/**
 * The text a PDF's content streams draw, for tests: pdfkit writes each line as hex strings in a
 * TJ array (`[<4c69616d> 20 <...>] TJ`) inside Flate-compressed streams. Lines are joined with
 * spaces, so a sentence wrapped over two lines is still found.
 */
export function pdfText(pdf: Buffer): string {
  const latin = pdf.toString('latin1');
  const lines: string[] = [];
  const streams = /stream\r?\n/g;
  for (let match = streams.exec(latin); match !== null; match = streams.exec(latin)) {
    const start = match.index + match[0].length;
    const end = latin.indexOf('endstream', start);
    if (end === -1) break;
    let body: string;
    try {
      body = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue; // not Flate (or not a content stream)
    }
    for (const array of body.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...(array[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((part) => Buffer.from(part[1] ?? '', 'hex').toString('latin1'));
      lines.push(hex.join(''));
    }
    streams.lastIndex = end;
  }
  return lines.join(' ').replace(/\s+/g, ' ');
}
