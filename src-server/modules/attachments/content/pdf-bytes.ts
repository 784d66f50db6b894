/** The PDF syntax both the token scan (pdf.ts) and the object reader (pdf-objects.ts) look for. */

export const OBJ = Buffer.from('obj');
export const STREAM = Buffer.from('stream');
export const END_STREAM = Buffer.from('endstream');

/** PDF whitespace (NUL included) and delimiters: they end a name and stand around keywords. */
export const SEPARATOR = new Uint8Array(256);
for (const char of '\0\t\n\f\r /<>[]()%{}') SEPARATOR[char.charCodeAt(0)] = 1;
