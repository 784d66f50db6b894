import {
  PDFContext,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
  PDFString,
} from '@cantoo/pdf-lib';
import { decodeStream, MAX_INFLATED_BYTES, UndecodableStream } from './pdf-filters';
import { END_STREAM, OBJ, SEPARATOR, STREAM } from './pdf-bytes';

/** A PDF whose objects cannot all be read within the limits: it cannot be shown to be passive. */
export class UnreadablePdf extends Error {}

type ByteStream = ConstructorParameters<typeof PDFObjectParser>[0];
const TRAILER = Buffer.from('trailer');
const WHITESPACE = new Uint8Array(256);
for (const char of '\0\t\n\f\r ') WHITESPACE[char.charCodeAt(0)] = 1;
const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x39;
const LENGTH = PDFName.of('Length');
const TYPE = PDFName.of('Type');
const OBJ_STM = PDFName.of('ObjStm');
const N = PDFName.of('N');
const FIRST = PDFName.of('First');
/** Every reference reads as this one: objects are read where they stand, never looked up by number. */
const ANY_REF = PDFRef.of(0, 65535);

/**
 * pdf-lib's object parser (names decoded, numbers, dictionaries, arrays) with these changes: names
 * outside `pooled` and references are not kept in pdf-lib's process-wide pools (a file with a
 * million distinct names would otherwise stay in memory for good), strings are found in one pass,
 * and a stream is read both ways readers read it (parseDictOrStream).
 */
class ObjectReader extends PDFObjectParser {
  private readonly source: Buffer;
  private readonly pooled: ReadonlyMap<string, PDFName>;
  private readonly longestPooled: number;
  private readonly otherReadings: PDFRawStream[] = [];

  constructor(source: Buffer, context: PDFContext, pooled: ReadonlyMap<string, PDFName>) {
    // pdf-lib does not export its ByteStream; its own factory makes one.
    super((PDFObjectParser.forBytes(source, context) as unknown as { bytes: ByteStream }).bytes, context);
    this.source = source;
    this.pooled = pooled;
    this.longestPooled = 3 * Math.max(...[...pooled.keys()].map((name) => name.length));
  }

  /** The object at `offset`; throws what pdf-lib throws when there is none. */
  objectAt(offset: number): PDFObject {
    this.bytes.moveTo(offset);
    return this.parseObject();
  }

  offset(): number {
    return this.bytes.offset();
  }

  /** The object numbers and offsets that open an object stream. */
  integersAt(offset: number, count: number): number[] {
    this.bytes.moveTo(offset);
    const integers: number[] = [];
    for (let index = 0; index < count; index += 1) {
      this.skipWhitespaceAndComments();
      if (!isDigit(this.bytes.peek())) throw new UnreadablePdf('object stream header');
      integers.push(this.parseRawInt());
    }
    return integers;
  }

  protected override parseName(): PDFName {
    this.bytes.assertNext(0x2f);
    const start = this.bytes.offset();
    let end = start;
    let escaped = false;
    while (end < this.source.length && SEPARATOR[this.source[end]!] === 0) {
      if (this.source[end] === 0x23) escaped = true;
      end += 1;
    }
    this.bytes.moveTo(end);
    // Longer than any checked name (even with every byte written #xx): not one of them.
    if (end - start > this.longestPooled) return unpooledName();
    let name = '';
    for (let at = start; at < end; at += 1) name += String.fromCharCode(this.source[at]!);
    if (escaped) name = name.replace(/#([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return this.pooled.get(name) ?? unpooledName();
  }

  /** A literal string: parentheses nest, a backslash escapes the next byte (read in one pass, not byte by byte into a string). */
  protected override parseString(): PDFString {
    const start = this.bytes.offset();
    let depth = 0;
    for (let index = start; index < this.source.length; index += 1) {
      const byte = this.source[index];
      if (byte === 0x5c) index += 1;
      else if (byte === 0x28) depth += 1;
      else if (byte === 0x29 && --depth === 0) {
        this.bytes.moveTo(index + 1);
        return PDFString.of(this.source.toString('latin1', start + 1, index));
      }
    }
    this.bytes.moveTo(this.source.length);
    throw new UnreadablePdf('string without its end');
  }

  protected override parseHexString(): PDFHexString {
    const start = this.bytes.offset();
    const end = this.source.indexOf(0x3e, start);
    this.bytes.moveTo(end === -1 ? this.source.length : end + 1);
    if (end === -1) throw new UnreadablePdf('hex string without its end');
    return PDFHexString.of(this.source.toString('latin1', start + 1, end));
  }

  protected override parseNumberOrRef(): PDFNumber | PDFRef {
    const first = this.parseRawNumber();
    this.skipWhitespaceAndComments();
    const lookahead = this.bytes.offset();
    if (isDigit(this.bytes.peek())) {
      this.parseRawNumber();
      this.skipWhitespaceAndComments();
      if (this.bytes.peek() === 0x52) {
        this.bytes.next();
        return ANY_REF;
      }
    }
    this.bytes.moveTo(lookahead);
    return PDFNumber.of(first);
  }

  /** The other reading of streams whose /Length and first "endstream" disagree, since the last take. */
  takeOtherReadings(): PDFRawStream[] {
    return this.otherReadings.splice(0);
  }

  /**
   * A stream's bytes run to its direct /Length (within the file) or to the first "endstream": readers
   * differ, so when the two disagree by more than white space the other reading is kept too.
   */
  protected override parseDictOrStream(): PDFDict | PDFRawStream {
    const dict = this.parseDict();
    this.skipWhitespaceAndComments();
    const keyword = this.bytes.offset();
    if (!this.source.subarray(keyword, keyword + STREAM.length).equals(STREAM)) return dict;
    let start = keyword + STREAM.length;
    if (this.source[start] === 0x0d) start += 1;
    if (this.source[start] === 0x0a) start += 1;
    const length = dict.get(LENGTH);
    const declared = length instanceof PDFNumber ? start + length.asNumber() : -1;
    const byLength = declared >= start && declared <= this.source.length ? declared : -1;
    const byKeyword = this.source.indexOf(END_STREAM, start);
    const ends = [byLength, byKeyword].filter((end) => end !== -1);
    this.bytes.moveTo(ends.length === 0 ? this.source.length : Math.max(...ends)); // what was read counts
    const [first, second] = ends;
    if (first === undefined) throw new UnreadablePdf('stream without its end');
    if (second !== undefined && !this.onlyWhitespace(Math.min(first, second), Math.max(first, second))) {
      this.otherReadings.push(PDFRawStream.of(dict, this.source.subarray(start, second)));
    }
    return PDFRawStream.of(dict, this.source.subarray(start, first));
  }

  private onlyWhitespace(from: number, to: number): boolean {
    for (let at = from; at < to; at += 1) if (WHITESPACE[this.source[at]!] !== 1) return false;
    return true;
  }
}

/** What names that are none of the ones checked inherit: the text "\0". */
const UNPOOLED = Object.create(PDFName.prototype, { encodedName: { value: '/\0' } }) as PDFName;
/** A name that is none of the ones checked: an object of its own, so dictionary keys stay apart. */
const unpooledName = (): PDFName => Object.create(UNPOOLED) as PDFName;

/** Where the digits that end at `index` start, after white space before them; -1 when there are none. */
function digitsBefore(bytes: Buffer, index: number): number {
  if (WHITESPACE[bytes[index] ?? 0x41] !== 1) return -1;
  let at = index;
  while (at >= 0 && WHITESPACE[bytes[at]!] === 1) at -= 1;
  if (!isDigit(bytes[at])) return -1;
  while (isDigit(bytes[at - 1])) at -= 1;
  return at;
}

/** Where "N G obj" headers start their objects: the offset after "obj", anywhere in the bytes. */
function objectStarts(bytes: Buffer): number[] {
  const starts: number[] = [];
  for (let at = bytes.indexOf(OBJ); at !== -1; at = bytes.indexOf(OBJ, at + OBJ.length)) {
    const after = bytes[at + OBJ.length];
    if (after !== undefined && SEPARATOR[after] === 0) continue;
    const generation = digitsBefore(bytes, at - 1);
    const number = generation === -1 ? -1 : digitsBefore(bytes, generation - 1);
    if (number !== -1 && (number === 0 || SEPARATOR[bytes[number - 1]!] === 1)) starts.push(at + OBJ.length);
  }
  return starts;
}

export interface PdfVisitor {
  /** Each object read, top-level or from an object stream, and each trailer dictionary. */
  object(object: PDFObject): void;
  /** The expanded bytes of each object stream. */
  objectStream(bytes: Buffer): void;
}

/** An object stream for a reader: one marked /Type/ObjStm, or any stream with /N and /First (readers need no more). */
function isObjectStream(stream: PDFRawStream): boolean {
  const { dict } = stream;
  if (dict.get(TYPE) === OBJ_STM) return true;
  return dict.get(N) instanceof PDFNumber && dict.get(FIRST) instanceof PDFNumber;
}

/**
 * Reads every object of a PDF as a reader could reach it (docs/rules/attachments.md#content): at
 * every "N G obj" header in the file (the ones a scan finds, and the ones a cross-reference could
 * point at, even inside another stream's bytes), each trailer, and every object of every object
 * stream, its filters and predictor undone. Answers how many top-level objects were read. Throws
 * UnreadablePdf when an object stream cannot be read, or the work would go past the limits (bytes
 * read at most 4 times the file and twice the expanded object streams; MAX_INFLATED_BYTES expanded).
 */
export function readPdfObjects(bytes: Buffer, pooled: ReadonlyMap<string, PDFName>, visit: PdfVisitor): number {
  const context = PDFContext.create();
  let budget = 4 * bytes.length;
  let inflatedLeft = MAX_INFLATED_BYTES;
  /** The object at `offset`, or null when none can be read there; what was read counts against the budget. */
  const objectAt = (reader: ObjectReader, offset: number): PDFObject | null => {
    let object: PDFObject | null = null;
    try {
      object = reader.objectAt(offset);
    } catch {
      object = null; // not an object, broken, or nested too deep for this parser
    }
    budget -= Math.max(reader.offset() - offset, 1);
    if (budget < 0) throw new UnreadablePdf('too much to read');
    return object;
  };
  const readObjectStream = (stream: PDFRawStream): void => {
    let decoded: Buffer;
    try {
      const expanded = decodeStream(stream, context, inflatedLeft);
      decoded = Buffer.from(expanded.buffer, expanded.byteOffset, expanded.byteLength);
    } catch (error) {
      if (error instanceof UndecodableStream) throw new UnreadablePdf(error.message);
      throw error;
    }
    inflatedLeft -= decoded.length;
    budget += 2 * decoded.length;
    visit.objectStream(decoded);
    const count = stream.dict.get(N);
    const first = stream.dict.get(FIRST);
    if (!(count instanceof PDFNumber) || !(first instanceof PDFNumber)) throw new UnreadablePdf('object stream without /N or /First');
    if (!(count.asNumber() >= 0 && count.asNumber() * 4 <= decoded.length)) throw new UnreadablePdf('object stream count');
    const reader = new ObjectReader(decoded, context, pooled);
    const header = reader.integersAt(0, 2 * count.asNumber());
    for (let index = 1; index < header.length; index += 2) {
      const object = objectAt(reader, first.asNumber() + header[index]!);
      // What a reader would find where the object cannot be read is unknown.
      if (object === null) throw new UnreadablePdf('object in an object stream');
      visit.object(object);
    }
  };
  const reader = new ObjectReader(bytes, context, pooled);
  let read = 0;
  for (const start of objectStarts(bytes)) {
    // "N G obj" in image bytes, or a broken object, reads as null: the token scan reads its bytes.
    const object = objectAt(reader, start);
    if (object === null) continue;
    read += 1;
    visit.object(object);
    for (const stream of [object, ...reader.takeOtherReadings()]) {
      if (stream instanceof PDFRawStream && isObjectStream(stream)) readObjectStream(stream);
    }
  }
  for (let at = bytes.indexOf(TRAILER); at !== -1; at = bytes.indexOf(TRAILER, at + TRAILER.length)) {
    const trailer = objectAt(reader, at + TRAILER.length);
    if (trailer !== null) visit.object(trailer);
  }
  return read;
}
