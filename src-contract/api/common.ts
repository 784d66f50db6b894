import { z } from 'zod';

/** An ISO calendar date, e.g. 2026-11-22. */
export const IsoDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');
/** A time of day, e.g. 07:30. */
export const TimeOfDaySchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a time as HH:MM');
/**
 * `a,b,c` in a query string -> ['a','b','c'] (trimmed, empty parts dropped): every list a query
 * string carries is split the same way; pipe the parts into the list's own schema.
 */
export function commaSeparated() {
  return z.string().transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== ''),
  );
}
/** A URL that may be absolute (https://…) or a site path (/about). */
export const LinkSchema = z.string().min(1).max(2048);

export const RegionSchema = z.object({ id: z.string(), slug: z.string(), name: z.string() });
export type Region = z.infer<typeof RegionSchema>;

/**
 * A clinic as every clinic answer shows it (the booking's clinic list, the contact page); the
 * server fills it from one row (src-server/db/clinic-columns.ts, clinicFields).
 */
export const ClinicFieldsSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  region: RegionSchema,
  address: z.object({ street: z.string(), suburb: z.string(), state: z.string(), postcode: z.string() }),
  latitude: z.number(),
  longitude: z.number(),
  timeZone: z.string(),
  phone: z.string(),
});

/**
 * A staff work queue as staff read it (callback requests, booking requests): the items, open ones
 * first, up to the queue's cap, and how many are open in all, also past the cap.
 */
export function staffQueueListSchema<Item extends z.ZodType>(item: Item) {
  return z.object({ items: z.array(item), openTotal: z.number().int().min(0) });
}

export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unreachable']),
  version: z.string(),
});
export type Health = z.infer<typeof HealthSchema>;
