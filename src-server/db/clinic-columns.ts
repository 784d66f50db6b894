/**
 * A clinic with its region and address, as several modules read it (booking, contact, the
 * appointment summary): one column list and one row type, so a new clinic column is added once.
 * Use with `from clinic c join region r on r.id = c.region_id`.
 */
export const CLINIC_COLUMNS = `c.id::text as id, c.slug, c.name, r.id::text as region_id, r.slug as region_slug, r.name as region_name,
       c.street, c.suburb, c.state, c.postcode, c.phone, c.email,
       c.latitude::float8 as latitude, c.longitude::float8 as longitude, c.time_zone`;

export type ClinicColumnsRow = {
  id: string;
  slug: string;
  name: string;
  region_id: string;
  region_slug: string;
  region_name: string;
  street: string;
  suburb: string;
  state: string;
  postcode: string;
  phone: string;
  email: string | null;
  latitude: number;
  longitude: number;
  time_zone: string;
};

/** The fields every clinic answer shares (booking's clinics, contact), from one row. */
export function clinicFields(row: ClinicColumnsRow) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    region: { id: row.region_id, slug: row.region_slug, name: row.region_name },
    address: { street: row.street, suburb: row.suburb, state: row.state, postcode: row.postcode },
    latitude: row.latitude,
    longitude: row.longitude,
    timeZone: row.time_zone,
    phone: row.phone,
  };
}

/**
 * Where a booking is, as its pages and mails name it (the appointment summary, the e-mail
 * preview): `c.name as clinic_name, c.street, c.suburb, c.state, c.postcode, c.phone, c.time_zone`.
 */
export const CLINIC_ADDRESS_COLUMNS = 'c.name as clinic_name, c.street, c.suburb, c.state, c.postcode, c.phone, c.time_zone';

export type ClinicAddressRow = { clinic_name: string } & Pick<
  ClinicColumnsRow,
  'street' | 'suburb' | 'state' | 'postcode' | 'phone' | 'time_zone'
>;

/** The clinic's address on one line, as pages and mails print it: "street, suburb state postcode". */
export function clinicAddressLine(row: Pick<ClinicColumnsRow, 'street' | 'suburb' | 'state' | 'postcode'>): string {
  return `${row.street}, ${row.suburb} ${row.state} ${row.postcode}`;
}
