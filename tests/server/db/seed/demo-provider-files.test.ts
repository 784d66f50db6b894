import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { NOTHING_DONE, preparationText } from '@contract/api/preparation';
import { APPLICATION_IMAGES } from '@contract/api/config';
import {
  DemoAppointmentsFileSchema,
  DemoClinicsFileSchema,
  DemoDocumentTypesFileSchema,
  DemoExamsFileSchema,
  DemoProviderFileSchema,
  DemoReferringDoctorsFileSchema,
  DemoRegionsFileSchema,
} from '../../../../src-server/db/seed/demo-provider-schema';

/**
 * The demo provider is the data every page shows on a fresh start, so it is checked here the way
 * the seed step will read it (same schemas), plus the cross-references the schemas cannot see: a
 * broken slug would only show up as an empty page or a failed seed much later.
 */

const DIR = fileURLToPath(new URL('../../../../resources/demo-provider/', import.meta.url));

function load<S extends z.ZodType>(name: string, schema: S): z.infer<S> {
  const raw: unknown = JSON.parse(readFileSync(`${DIR}${name}`, 'utf8'));
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw new Error(`${name} does not match its schema:\n${JSON.stringify(result.error.issues, null, 2)}`);
  }
  return result.data;
}

const provider = load('provider.json', DemoProviderFileSchema);
const regions = load('regions.json', DemoRegionsFileSchema);
const clinics = load('clinics.json', DemoClinicsFileSchema);
const examsFile = load('exams.json', DemoExamsFileSchema);
const documentTypes = load('document-types.json', DemoDocumentTypesFileSchema);
const doctors = load('referring-doctors.json', DemoReferringDoctorsFileSchema);
const appointments = load('appointments.json', DemoAppointmentsFileSchema);
/** Appointments on a day and a time; the check-in demo's is placed relative to the seed instead (startsInMinutes). */
const calendar = appointments.flatMap((appointment) =>
  appointment.dayOffset !== undefined && appointment.startTime !== undefined
    ? [{ ...appointment, dayOffset: appointment.dayOffset, startTime: appointment.startTime }]
    : [],
);

const REQUIRED_MODALITIES = ['CT', 'MR', 'XR', 'US', 'MG', 'NM', 'BMD', 'IR'];

function minutes(time: string): number {
  const [hours, mins] = time.split(':').map(Number);
  if (hours === undefined || mins === undefined) throw new Error(`not a time: ${time}`);
  return hours * 60 + mins;
}

function duplicates(values: readonly string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

function byKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  return new Map(items.map((item) => [key(item), item]));
}

/** WCAG 2.x relative luminance of a #rrggbb colour. */
function relativeLuminance(colour: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!match) throw new Error(`expected #rrggbb, got ${colour}`);
  const [r, g, b] = match.slice(1).map((part) => {
    const channel = parseInt(part, 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  if (r === undefined || g === undefined || b === undefined) throw new Error(`bad colour ${colour}`);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  if (lighter === undefined || darker === undefined) throw new Error('unreachable');
  return (lighter + 0.05) / (darker + 0.05);
}

/** Tags and link schemes the configuration HTML may use (the server's sanitiser keeps these). */
const ALLOWED_TAGS = new Set(['p', 'h2', 'h3', 'ul', 'ol', 'li', 'a', 'strong', 'em', 'br']);
function htmlProblems(html: string): string[] {
  const problems: string[] = [];
  for (const tag of html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)) {
    const [whole, name = '', attributes = ''] = tag;
    if (!ALLOWED_TAGS.has(name.toLowerCase())) problems.push(`tag not allowed: ${whole}`);
    const attributeNames = [...attributes.matchAll(/([a-zA-Z-]+)\s*=/g)].map((m) => m[1]);
    if (attributeNames.some((attribute) => !(name === 'a' && attribute === 'href'))) {
      problems.push(`attribute not allowed: ${whole}`);
    }
  }
  for (const [, href = ''] of html.matchAll(/href="([^"]*)"/g)) {
    if (!/^(https:\/\/|mailto:|tel:\+?\d+$)/.test(href)) problems.push(`link not allowed: ${href}`);
  }
  if (/&(?![a-z]+;|#\d+;)/i.test(html)) problems.push('unescaped ampersand');
  return problems;
}

describe('demo provider: provider.json', () => {
  it('keeps every configuration HTML string to plain formatting tags and https/mailto/tel links', () => {
    const html = {
      about: provider.radiology.about,
      contact: provider.radiology.contact,
      terms: provider.termsHtml,
      banner: provider.app.bannerHtml ?? '',
    };
    for (const [name, value] of Object.entries(html)) {
      expect(htmlProblems(value), name).toEqual([]);
    }
    expect(provider.termsHtml.match(/<h2>/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
  });

  it('has theme colours that meet WCAG AA contrast (4.5:1) for text, links, header, footer and buttons', () => {
    const { theme } = provider;
    const pairs: Record<string, [string, string]> = {
      'text on background': [theme.colorText, theme.colorBackground],
      'link on background': [theme.colorLink, theme.colorBackground],
      'link on footer': [theme.colorLink, theme.colorFooterBackground],
      'header text on header': [theme.colorHeaderText, theme.colorHeaderBackground],
      'footer text on footer': [theme.colorFooterText, theme.colorFooterBackground],
      // antd draws primary button labels in white.
      'button text on primary': ['#ffffff', theme.colorPrimary],
      'primary on background': [theme.colorPrimary, theme.colorBackground],
    };
    for (const [name, [foreground, background]] of Object.entries(pairs)) {
      expect(contrastRatio(foreground, background), name).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('computes contrast as WCAG defines it (black on white 21:1, equal colours 1:1)', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBeCloseTo(1, 5);
    // The WCAG example: #767676 on white is the lightest grey passing AA.
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
  });

  it('maps every application image to a real PNG file under images/', () => {
    expect(Object.keys(provider.images).sort()).toEqual([...APPLICATION_IMAGES].sort());
    for (const [name, file] of Object.entries(provider.images)) {
      expect(file, name).toMatch(/^[a-z0-9-]+\.png$/);
      const bytes = readFileSync(`${DIR}images/${file}`);
      expect([...bytes.subarray(0, 8)], name).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      expect(bytes.subarray(12, 16).toString('ascii'), name).toBe('IHDR');
      expect(bytes.readUInt32BE(16), `${name} width`).toBeGreaterThan(0);
      expect(bytes.readUInt32BE(20), `${name} height`).toBeGreaterThan(0);
      // Served on every page load: keep them small.
      expect(bytes.length, `${name} size`).toBeLessThan(32 * 1024);
    }
  });

  it('has a privacy policy link, embedding origins without paths and a demo environment', () => {
    expect(provider.radiology.privacyPolicyUrl).toMatch(/^https:\/\//);
    for (const origin of provider.embeddingOrigins) {
      expect(new URL(origin).origin).toBe(origin);
    }
    expect(provider.environment.production).toBe(false);
    expect(provider.app.locale).toBe('en-AU');
  });

  it('styles only body parts that exist and has translation overlays for supported locales', () => {
    const bodyParts = new Set(examsFile.bodyParts.map((part) => part.slug));
    for (const slug of Object.keys(provider.bodyFigure.bodyPartStyles)) {
      expect(bodyParts.has(slug), slug).toBe(true);
    }
    expect(Object.keys(provider.translations)).toContain('en-AU');
  });
});

describe('demo provider: regions and clinics', () => {
  const regionSlugs = new Set(regions.map((region) => region.slug));
  const modalityCodes = new Set(examsFile.modalities.map((modality) => modality.code));

  it('has at least 2 regions and 6 clinics with unique slugs, each clinic in a known region', () => {
    expect(regions.length).toBeGreaterThanOrEqual(2);
    expect(clinics.length).toBeGreaterThanOrEqual(6);
    expect(duplicates(regions.map((region) => region.slug))).toEqual([]);
    expect(duplicates(clinics.map((clinic) => clinic.slug))).toEqual([]);
    for (const clinic of clinics) expect(regionSlugs.has(clinic.regionSlug), clinic.slug).toBe(true);
    for (const region of regions) {
      expect(
        clinics.some((clinic) => clinic.regionSlug === region.slug),
        region.slug,
      ).toBe(true);
    }
  });

  it('has Australian addresses: state matches postcode range, coordinates on the east coast, valid time zone', () => {
    const postcodeFirstDigit: Record<string, string> = { NSW: '2', ACT: '2', VIC: '3', QLD: '4' };
    for (const clinic of clinics) {
      const { state, postcode } = clinic.address;
      expect(postcode, clinic.slug).toMatch(/^\d{4}$/);
      expect(postcode[0], clinic.slug).toBe(postcodeFirstDigit[state]);
      expect(clinic.latitude, clinic.slug).toBeGreaterThan(-39.5);
      expect(clinic.latitude, clinic.slug).toBeLessThan(-27.5);
      expect(clinic.longitude, clinic.slug).toBeGreaterThan(140);
      expect(clinic.longitude, clinic.slug).toBeLessThan(154);
      expect(clinic.timeZone, clinic.slug).toMatch(/^Australia\//);
      expect(() => new Intl.DateTimeFormat('en-AU', { timeZone: clinic.timeZone }), clinic.slug).not.toThrow();
      // Fictional numbers from the ranges ACMA keeps for drama (0x 5550 xxxx).
      expect(clinic.phone, clinic.slug).toMatch(/^0[2378] 5550 \d{4}$/);
    }
  });

  it('includes a clinic in a time zone without daylight saving (for later DST tests)', () => {
    expect(clinics.some((clinic) => clinic.timeZone === 'Australia/Brisbane')).toBe(true);
    expect(clinics.some((clinic) => clinic.timeZone === 'Australia/Sydney')).toBe(true);
  });

  it('has consistent opening hours, resources and closed dates', () => {
    for (const clinic of clinics) {
      expect(clinic.openingHours.length, clinic.slug).toBeGreaterThanOrEqual(5);
      expect(duplicates(clinic.openingHours.map((hours) => String(hours.weekday))), clinic.slug).toEqual([]);
      for (const hours of clinic.openingHours) {
        expect(minutes(hours.opens), clinic.slug).toBeLessThan(minutes(hours.closes));
      }
      const earliest = Math.min(...clinic.openingHours.map((hours) => minutes(hours.opens)));
      const latest = Math.max(...clinic.openingHours.map((hours) => minutes(hours.closes)));
      expect(duplicates(clinic.resources.map((resource) => resource.code)), clinic.slug).toEqual([]);
      for (const resource of clinic.resources) {
        const label = `${clinic.slug}/${resource.code}`;
        expect(modalityCodes.has(resource.modalityCode), label).toBe(true);
        for (const pause of resource.breaks) {
          expect(minutes(pause.starts), label).toBeLessThan(minutes(pause.ends));
          expect(minutes(pause.starts), label).toBeGreaterThanOrEqual(earliest);
          expect(minutes(pause.ends), label).toBeLessThanOrEqual(latest);
        }
      }
      for (const date of clinic.closedDates) {
        // A real calendar date (2026-02-30 would roll over and differ).
        expect(new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10), clinic.slug).toBe(date);
      }
      expect(clinic.closedDates, clinic.slug).toContain('2026-12-25');
    }
  });
});

describe('demo provider: exams', () => {
  const { modalities, bodyParts, exams } = examsFile;
  const modalityCodes = new Set(modalities.map((modality) => modality.code));
  const bodyPartSlugs = new Set(bodyParts.map((part) => part.slug));
  const documentTypeCodes = new Set(documentTypes.map((type) => type.code));

  it('covers all 8 modalities with at least 25 exams and unique codes', () => {
    expect(exams.length).toBeGreaterThanOrEqual(25);
    for (const code of REQUIRED_MODALITIES) expect(modalityCodes.has(code), code).toBe(true);
    expect(duplicates(modalities.map((modality) => modality.code))).toEqual([]);
    expect(duplicates(bodyParts.map((part) => part.slug))).toEqual([]);
    expect(duplicates(exams.map((exam) => exam.slug))).toEqual([]);
    expect(duplicates(exams.map((exam) => exam.examCode))).toEqual([]);
    expect(duplicates(documentTypes.map((type) => type.code))).toEqual([]);
  });

  it('references only known modalities, body parts and document types', () => {
    for (const exam of exams) {
      expect(modalityCodes.has(exam.modalityCode), exam.slug).toBe(true);
      expect(exam.bodyPartSlugs.length, exam.slug).toBeGreaterThan(0);
      for (const slug of exam.bodyPartSlugs) expect(bodyPartSlugs.has(slug), `${exam.slug}: ${slug}`).toBe(true);
      for (const code of exam.documentTypeCodes) {
        expect(documentTypeCodes.has(code), `${exam.slug}: ${code}`).toBe(true);
      }
      if (exam.referralRequired) expect(exam.documentTypeCodes, exam.slug).toContain('REFERRAL');
    }
  });

  it('has every modality with exams and at least one clinic that offers it', () => {
    for (const modality of modalities) {
      const bookable = exams.filter((exam) => exam.modalityCode === modality.code && !exam.enquiryOnly);
      expect(bookable.length, modality.code).toBeGreaterThan(0);
      const offeredBy = clinics.filter((clinic) => clinic.resources.some((resource) => resource.modalityCode === modality.code));
      expect(offeredBy.length, modality.code).toBeGreaterThan(0);
    }
  });

  it('has the clinical rules a radiology provider would publish', () => {
    const exam = (slug: string) => {
      const found = exams.find((candidate) => candidate.slug === slug);
      if (!found) throw new Error(`missing exam ${slug}`);
      return found;
    };
    for (const entry of exams.filter((candidate) => ['CT', 'MR', 'NM', 'IR'].includes(candidate.modalityCode))) {
      expect(entry.referralRequired, entry.slug).toBe(true);
    }
    expect(exams.filter((entry) => entry.enquiryOnly).length).toBeGreaterThanOrEqual(3);
    expect(exams.some((entry) => !entry.referralRequired)).toBe(true);
    expect(exam('us-abdomen').preparationNotes).toMatch(/6 hours/);
    expect(exam('us-pelvis').preparationNotes).toMatch(/full bladder/);
    expect(preparationText(exam('mri-brain').preparationNotes, NOTHING_DONE)).toMatch(/metal/);
    expect(exam('mg-screening-mammogram').preparationNotes).toMatch(/deodorant/);
    expect(exam('bmd-dexa-hip-spine').preparationNotes).toMatch(/calcium supplements for 24 hours/);
  });
});

describe('demo provider: referring doctors and appointments', () => {
  const clinicsBySlug = byKey(clinics, (clinic) => clinic.slug);
  const examsBySlug = byKey(examsFile.exams, (exam) => exam.slug);
  const doctorNumbers = new Set(doctors.map((doctor) => doctor.providerNumber));

  it('has referring doctors with unique provider numbers in the Medicare format', () => {
    expect(doctors.length).toBeGreaterThanOrEqual(8);
    expect(duplicates(doctors.map((doctor) => doctor.providerNumber))).toEqual([]);
    for (const doctor of doctors) expect(doctor.providerNumber).toMatch(/^\d{6}[0-9A-Z][A-Z]$/);
  });

  it('has unique, URL-safe booking keys and several statuses including upcoming bookings', () => {
    expect(appointments.length).toBeGreaterThanOrEqual(8);
    const keys = appointments.map((appointment) => appointment.bookingKey);
    expect(duplicates(keys)).toEqual([]);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(new Set(appointments.map((appointment) => appointment.status)).size).toBeGreaterThanOrEqual(6);
    expect(calendar.some((appointment) => appointment.status === 'BOOKED' && appointment.dayOffset > 0)).toBe(true);
    for (const appointment of calendar) expect(Math.abs(appointment.dayOffset), appointment.bookingKey).toBeLessThanOrEqual(30);
    for (const appointment of appointments) {
      expect(appointment.patient.email, appointment.bookingKey).toMatch(/@example\.com$/);
      expect(appointment.patient.contactNumber, appointment.bookingKey).toMatch(/^04\d{8}$/);
    }
  });

  it('references existing exams, clinics, resources of the exam modality and doctors', () => {
    for (const appointment of appointments) {
      const label = appointment.bookingKey;
      const exam = examsBySlug.get(appointment.examSlug);
      const clinic = clinicsBySlug.get(appointment.clinicSlug);
      if (!exam || !clinic) throw new Error(`${label}: unknown exam or clinic`);
      const resource = clinic.resources.find((candidate) => candidate.code === appointment.resourceCode);
      if (!resource) throw new Error(`${label}: unknown resource ${appointment.resourceCode}`);
      expect(resource.modalityCode, label).toBe(exam.modalityCode);
      expect(exam.enquiryOnly, `${label}: enquiry-only exams have no appointments`).toBe(false);
      if (appointment.referringDoctorProviderNumber !== null) {
        expect(doctorNumbers.has(appointment.referringDoctorProviderNumber), label).toBe(true);
      }
      if (exam.referralRequired) expect(appointment.referringDoctorProviderNumber, label).not.toBeNull();
    }
  });

  it('starts and ends inside the clinic hours and outside the resource breaks', () => {
    for (const appointment of calendar) {
      const label = appointment.bookingKey;
      const exam = examsBySlug.get(appointment.examSlug);
      const clinic = clinicsBySlug.get(appointment.clinicSlug);
      const resource = clinic?.resources.find((candidate) => candidate.code === appointment.resourceCode);
      if (!exam || !clinic || !resource) throw new Error(`${label}: broken reference`);
      const start = minutes(appointment.startTime);
      const end = start + exam.durationMinutes;
      // The weekday depends on the seed date, so check against the widest hours of the week...
      expect(start, label).toBeGreaterThanOrEqual(Math.min(...clinic.openingHours.map((h) => minutes(h.opens))));
      expect(end, label).toBeLessThanOrEqual(Math.max(...clinic.openingHours.map((h) => minutes(h.closes))));
      // ...and against Monday to Friday, which every clinic opens, so a weekday seed never lands outside.
      for (const hours of clinic.openingHours.filter((h) => h.weekday <= 5)) {
        expect(start, `${label} weekday ${hours.weekday}`).toBeGreaterThanOrEqual(minutes(hours.opens));
        expect(end, `${label} weekday ${hours.weekday}`).toBeLessThanOrEqual(minutes(hours.closes));
      }
      for (const pause of resource.breaks) {
        const overlaps = start < minutes(pause.ends) && end > minutes(pause.starts);
        expect(overlaps, `${label} overlaps break ${pause.starts}-${pause.ends}`).toBe(false);
      }
    }
  });

  it('has booked appointments inside their check-in window whenever the demo starts, on resources no dated demo appointment uses', () => {
    // One for digital check-in (OLIVIA, tests/e2e/check-in.spec.ts), one for the kiosk (tests/e2e/kiosk-check-in.spec.ts)
    // and six for the kiosk journeys at three screen sizes (tests/e2e/kiosk-journeys.spec.ts).
    const relative = appointments.filter((appointment) => appointment.startsInMinutes !== undefined);
    expect(relative.map((appointment) => appointment.status)).toEqual(Array(8).fill('BOOKED'));
    // Relative appointments sharing a resource must not overlap (each starts at most 5 minutes late, rounded up).
    for (const [index, appointment] of relative.entries()) {
      for (const other of relative.slice(index + 1)) {
        if (`${appointment.clinicSlug}/${appointment.resourceCode}` !== `${other.clinicSlug}/${other.resourceCode}`) continue;
        const length = (slug: string) => examsBySlug.get(slug)?.durationMinutes ?? Infinity;
        const [first, second] = [appointment, other].sort((a, b) => (a.startsInMinutes ?? 0) - (b.startsInMinutes ?? 0));
        expect((first?.startsInMinutes ?? 0) + 5 + length(first?.examSlug ?? '')).toBeLessThanOrEqual(second?.startsInMinutes ?? 0);
      }
    }
    for (const appointment of relative) {
      // Check-in opens 120 minutes before the start (0014_check_in.sql's default prior_minutes).
      expect(appointment.startsInMinutes ?? 0).toBeLessThanOrEqual(120 - 5);
      const resource = `${appointment.clinicSlug}/${appointment.resourceCode}`;
      expect(calendar.filter((other) => `${other.clinicSlug}/${other.resourceCode}` === resource)).toEqual([]);
    }
  });

  it('never double-books a resource on the same day', () => {
    const booked = new Map<string, { key: string; start: number; end: number }[]>();
    for (const appointment of calendar) {
      const exam = examsBySlug.get(appointment.examSlug);
      if (!exam) throw new Error(`${appointment.bookingKey}: unknown exam`);
      const day = `${appointment.clinicSlug}/${appointment.resourceCode}/${appointment.dayOffset}`;
      const start = minutes(appointment.startTime);
      const end = start + exam.durationMinutes;
      const others = booked.get(day) ?? [];
      for (const other of others) {
        const overlaps = start < other.end && end > other.start;
        expect(overlaps, `${appointment.bookingKey} overlaps ${other.key} on ${day}`).toBe(false);
      }
      booked.set(day, [...others, { key: appointment.bookingKey, start, end }]);
    }
  });
});
