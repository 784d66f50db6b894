/**
 * Wall-clock time in an IANA time zone to an instant, with nothing but Intl (no date library):
 * a clinic's 09:30 is 09:30 where the clinic is, on both sides of a daylight-saving change.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let existing = formatters.get(timeZone);
  if (existing === undefined) {
    existing = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, existing);
  }
  return existing;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(instant: Date, timeZone: string): WallClock {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .filter((part) => part.type !== 'literal')
      .map((part) => [part.type, Number(part.value)]),
  );
  const get = (name: string): number => {
    const value = parts[name];
    if (value === undefined || Number.isNaN(value)) throw new Error(`time-zone: no ${name} for ${timeZone}`);
    return value;
  };
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich). */
function offsetMs(instant: Date, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The wall-clock time of an instant in a zone and the zone's offset then, in minutes east of UTC. */
export function zonedWallClock(instant: Date, timeZone: string): WallClock & { offsetMinutes: number } {
  return { ...wallClock(instant, timeZone), offsetMinutes: Math.round(offsetMs(instant, timeZone) / 60_000) };
}

/** The calendar date (YYYY-MM-DD) an instant falls on in a zone. */
export function localDate(instant: Date, timeZone: string): string {
  const wall = wallClock(instant, timeZone);
  return `${wall.year}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`;
}

/** Adds whole days to a calendar date (YYYY-MM-DD); no time zone involved. */
export function addDays(isoDate: string, days: number): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) throw new Error(`addDays: not a date: ${isoDate}`);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/**
 * The instant of a local date and time (HH:MM) in a zone. A time that does not exist (skipped
 * by a daylight-saving jump) resolves to the instant just after the jump.
 */
export function zonedTimeToInstant(isoDate: string, time: string, timeZone: string): Date {
  const [year, month, day] = isoDate.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  if ([year, month, day, hour, minute].some((part) => part === undefined || Number.isNaN(part))) {
    throw new Error(`zonedTimeToInstant: bad date or time: ${isoDate} ${time}`);
  }
  const asUtc = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0);
  // Two passes settle the offset even when the first guess lands across a DST change.
  let guess = asUtc - offsetMs(new Date(asUtc), timeZone);
  guess = asUtc - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}
