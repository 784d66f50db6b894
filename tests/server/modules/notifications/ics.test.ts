import { describe, expect, it } from 'vitest';
import { buildIcs, escapeIcsText, foldIcsLine, icsDateTime } from '../../../../src-server/modules/notifications/ics';

/** RFC 5545 3.1: a line break followed by one space or tab is removed when reading. */
function unfold(ics: string): string[] {
  return ics.replace(/\r\n[ \t]/g, '').split('\r\n');
}

describe('ics', () => {
  it('escapes backslash, semicolon, comma and every kind of line break in TEXT values', () => {
    expect(escapeIcsText('a\\b;c,d\ne\r\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
  });

  it('folds long lines at 75 octets with CRLF and a space, and unfolding gives the line back', () => {
    const line = `DESCRIPTION:${'x'.repeat(200)}`;
    const folded = foldIcsLine(line);
    const parts = folded.split('\r\n');
    expect(parts.length).toBe(Math.ceil((line.length - 75) / 74) + 1);
    for (const [index, part] of parts.entries()) {
      expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
      if (index > 0) expect(part.startsWith(' ')).toBe(true);
    }
    expect(parts[0]).toHaveLength(75);
    expect(folded.replace(/\r\n /g, '')).toBe(line);
  });

  it('never splits a multi-byte UTF-8 character across a fold', () => {
    // 'é' is 2 octets, '😀' is 4: a byte-wise split would corrupt them.
    const line = `SUMMARY:${'é😀'.repeat(40)}`;
    const parts = foldIcsLine(line).split('\r\n');
    for (const part of parts) {
      expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
      expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
      expect(part).not.toContain('\uFFFD');
    }
    expect(parts.join('\r\n').replace(/\r\n /g, '')).toBe(line);
  });

  it('leaves a line of exactly 75 octets alone', () => {
    const line = `SUMMARY:${'a'.repeat(67)}`;
    expect(Buffer.byteLength(line)).toBe(75);
    expect(foldIcsLine(line)).toBe(line);
    expect(foldIcsLine(`${line}b`)).toBe(`${line}\r\n b`);
  });

  it('writes UTC DATE-TIME values', () => {
    expect(icsDateTime(new Date('2026-04-04T23:30:05.123Z'))).toBe('20260404T233005Z');
    expect(() => icsDateTime(new Date('nope'))).toThrow(RangeError);
  });

  it('builds a VCALENDAR with one VEVENT per event, CRLF everywhere, escaped and folded', () => {
    const ics = buildIcs({
      productId: '-//Demo//Portal//EN',
      stamp: new Date('2026-03-10T01:00:00Z'),
      events: [
        {
          uid: 'abc@portal.example',
          startsAt: new Date('2026-04-04T23:30:00Z'),
          endsAt: new Date('2026-04-05T00:15:00Z'),
          summary: 'MRI Brain, Sydney; level 2',
          location: 'Clinic, 1 George St\\Sydney',
          description: `Line one\nLine two ${'long '.repeat(30)}`,
        },
      ],
    });
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const physical of ics.split('\r\n')) expect(Buffer.byteLength(physical, 'utf8')).toBeLessThanOrEqual(75);
    const lines = unfold(ics);
    expect(lines.slice(0, 2)).toEqual(['BEGIN:VCALENDAR', 'VERSION:2.0']);
    expect(lines).toContain('PRODID:-//Demo//Portal//EN');
    expect(lines).toContain('UID:abc@portal.example');
    expect(lines).toContain('DTSTAMP:20260310T010000Z');
    expect(lines).toContain('DTSTART:20260404T233000Z');
    expect(lines).toContain('DTEND:20260405T001500Z');
    expect(lines).toContain('SUMMARY:MRI Brain\\, Sydney\\; level 2');
    expect(lines).toContain('LOCATION:Clinic\\, 1 George St\\\\Sydney');
    expect(lines).toContain(`DESCRIPTION:Line one\\nLine two ${'long '.repeat(30)}`);
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines.at(-2)).toBe('END:VCALENDAR');
  });

  it('refuses an event that does not end after it starts', () => {
    const at = new Date('2026-04-04T23:30:00Z');
    expect(() => buildIcs({ productId: 'p', stamp: at, events: [{ uid: 'u', startsAt: at, endsAt: at, summary: 's' }] })).toThrow(
      RangeError,
    );
  });
});
