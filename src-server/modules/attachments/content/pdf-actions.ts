import { PDFArray, PDFDict, PDFName, PDFObject, PDFRawStream } from '@cantoo/pdf-lib';

export type PdfRefusal = 'pdf_script' | 'pdf_link' | 'pdf_embedded_file' | 'pdf_encrypted';

/** Keys that make a PDF active wherever they stand: scripts, event actions, XFA, attached files, encryption. */
export const ACTIVE_KEYS = new Map<string, PdfRefusal>([
  ['JS', 'pdf_script'],
  ['JavaScript', 'pdf_script'],
  ['AA', 'pdf_script'],
  ['XFA', 'pdf_script'],
  ['Launch', 'pdf_script'],
  ['RichMedia', 'pdf_embedded_file'],
  ['RichMediaContent', 'pdf_embedded_file'],
  ['EmbeddedFile', 'pdf_embedded_file'],
  ['EmbeddedFiles', 'pdf_embedded_file'],
  ['Encrypt', 'pdf_encrypted'],
]);

/**
 * Names that are refused as a value anywhere (an action's /S, an annotation's /Subtype, an object
 * that is only the name): actions that run scripts or programs, play media, hide fields, or open
 * web pages and other files or send data (links, forms); annotations that carry files or media.
 */
export const ACTIVE_VALUES = new Map<string, PdfRefusal>([
  ['JavaScript', 'pdf_script'],
  ['Launch', 'pdf_script'],
  ['RichMediaExecute', 'pdf_script'],
  ['Rendition', 'pdf_script'],
  ['Movie', 'pdf_script'],
  ['Sound', 'pdf_script'],
  ['Hide', 'pdf_script'],
  ['Screen', 'pdf_script'],
  ['GoTo3DView', 'pdf_script'],
  ['3D', 'pdf_script'],
  ['URI', 'pdf_link'],
  ['SubmitForm', 'pdf_link'],
  ['ImportData', 'pdf_link'],
  ['GoToR', 'pdf_link'],
  ['GoToE', 'pdf_link'],
  ['RichMedia', 'pdf_embedded_file'],
  ['FileAttachment', 'pdf_embedded_file'],
  ['EmbeddedFile', 'pdf_embedded_file'],
]);

/** The named actions every reader knows (ISO 32000-1, 12.6.4.11); any other runs a menu item. */
const STANDARD_NAMED_ACTIONS = new Set(['NextPage', 'PrevPage', 'FirstPage', 'LastPage']);

/** The names the checks compare, and the ones pdf-lib's parser looks up: all others are read as "\0". */
export const CHECKED_NAMES: ReadonlyMap<string, PDFName> = new Map(
  [
    ...ACTIVE_KEYS.keys(),
    ...ACTIVE_VALUES.keys(),
    ...STANDARD_NAMED_ACTIONS,
    ...['Type', 'Length', 'Catalog', 'Pages', 'Page', 'ObjStm', 'N', 'First', 'S', 'Named'],
    ...['Filter', 'DecodeParms', 'DP', 'Predictor', 'Colors', 'BitsPerComponent', 'Columns'],
    ...['FlateDecode', 'LZWDecode', 'ASCIIHexDecode', 'ASCII85Decode', 'RunLengthDecode', 'Fl', 'LZW', 'AHx', 'A85', 'RL'],
  ].map((name) => [name, PDFName.of(name)]),
);

const S = PDFName.of('S');
const N = PDFName.of('N');
const NAMED = PDFName.of('Named');
/** The maps by pdf-lib's pooled names: looked up by identity, no text decoded for each name read. */
const byName = (map: ReadonlyMap<string, PdfRefusal>): Map<PDFName, PdfRefusal> =>
  new Map([...map].map(([name, refusal]) => [PDFName.of(name), refusal]));
const ACTIVE_KEY_NAMES = byName(ACTIVE_KEYS);
const ACTIVE_VALUE_NAMES = byName(ACTIVE_VALUES);
const STANDARD_NAMED = new Set([...STANDARD_NAMED_ACTIONS].map((name) => PDFName.of(name)));

/** Why an object read from a PDF makes it active (its dictionaries and arrays walked), or undefined; `tolerated` reasons are passed over. */
export function activeObject(root: PDFObject, tolerated: ReadonlySet<PdfRefusal>): PdfRefusal | undefined {
  const pending: PDFObject[] = [root];
  for (let object = pending.pop(); object !== undefined; object = pending.pop()) {
    if (object instanceof PDFName) {
      const found = ACTIVE_VALUE_NAMES.get(object);
      if (found !== undefined && !tolerated.has(found)) return found;
    } else if (object instanceof PDFArray) {
      for (const element of object.asArray()) pending.push(element);
    } else if (object instanceof PDFDict || object instanceof PDFRawStream) {
      const dict = object instanceof PDFRawStream ? object.dict : object;
      for (const [key, value] of dict.entries()) {
        const found = ACTIVE_KEY_NAMES.get(key);
        if (found !== undefined && !tolerated.has(found)) return found;
        pending.push(value);
      }
      if (dict.get(S) === NAMED) {
        const name = dict.get(N);
        if (!(name instanceof PDFName) || !STANDARD_NAMED.has(name)) return 'pdf_script';
      }
    }
  }
  return undefined;
}
