import { describe, expect, it } from 'vitest';
import { loadDemoProvider } from '../../../../src-server/db/seed/demo-provider';
import {
  DOCTOR_SEARCH_INDEX,
  GENERATED_DOCTOR_COUNT,
  generateReferringDoctors,
  insertGeneratedReferringDoctors,
  PRACTICE_LOCATION_CHARACTERS,
  providerNumberCheckCharacter,
} from '../../../../src-server/db/seed/referring-doctors';
import { backends } from '../../helpers/database';
import { useTestDatabase } from '../../helpers/test-app';

// The demo's generated referring-doctor directory (src-server/db/seed/referring-doctors.ts).

const PROVIDER_NUMBER = /^(\d{6})([0-9A-HJ-NP-RT-Y])([YXWTLKJHFBA])$/;

describe('the generated referring-doctor directory', () => {
  const doctors = generateReferringDoctors();

  it('has at least 20,000 doctors, the same ones every time', () => {
    expect(doctors).toHaveLength(GENERATED_DOCTOR_COUNT);
    expect(GENERATED_DOCTOR_COUNT).toBeGreaterThanOrEqual(20_000);
    expect(generateReferringDoctors(500)).toEqual(doctors.slice(0, 500));
  });

  it('computes the check character as published (486674 at location Y is 486674YB)', () => {
    expect(providerNumberCheckCharacter('486674', 'Y')).toBe('B');
    expect(() => providerNumberCheckCharacter('48667', 'Y')).toThrow();
    expect(() => providerNumberCheckCharacter('486674', 'I')).toThrow();
  });

  it('gives every doctor a distinct, well-formed provider number that none of the hand-written doctors has', async () => {
    const numbers = new Set<string>();
    for (const doctor of doctors) {
      const [, stem = '', location = '', check = ''] = PROVIDER_NUMBER.exec(doctor.providerNumber) ?? [];
      expect(doctor.providerNumber).toMatch(PROVIDER_NUMBER);
      expect(PRACTICE_LOCATION_CHARACTERS).toContain(location);
      expect(providerNumberCheckCharacter(stem, location)).toBe(check);
      numbers.add(doctor.providerNumber);
    }
    expect(numbers.size).toBe(doctors.length);
    const handWritten = (await loadDemoProvider()).referringDoctors.map((doctor) => doctor.providerNumber);
    expect(handWritten.filter((number) => numbers.has(number))).toEqual([]);
  });

  it('places doctors in many localities with four-digit postcodes, under repeated but varied names', () => {
    expect(doctors.every((doctor) => /^\d{4}$/.test(doctor.postcode) && doctor.city !== '' && doctor.practiceName !== '')).toBe(true);
    expect(new Set(doctors.map((doctor) => doctor.city)).size).toBeGreaterThanOrEqual(50);
    const names = new Set(doctors.map((doctor) => `${doctor.firstName} ${doctor.lastName}`));
    expect(names.size).toBeGreaterThan(doctors.length / 3);
    expect(names.size).toBeLessThan(doctors.length);
  });
});

describe.each(backends())('insertGeneratedReferringDoctors on %s', (backend) => {
  const test = useTestDatabase({ backend, state: 'migrated' });

  async function indexDefinition(): Promise<string | undefined> {
    const rows = await test.db.query<{ indexdef: string }>('select indexdef from pg_indexes where indexname = $1', [DOCTOR_SEARCH_INDEX]);
    return rows[0]?.indexdef;
  }

  it('writes the doctors and rebuilds the search index exactly as the migration made it', async () => {
    const before = await indexDefinition();
    expect(before).toContain('gin_trgm_ops');
    const written = await test.db.transaction((tx) => insertGeneratedReferringDoctors(tx, 1_200));
    expect(written).toBe(1_200);
    expect(await indexDefinition()).toBe(before);
    const rows = await test.db.query<{ provider_number: string; search_text: string }>(
      'select provider_number, search_text from referring_doctor',
    );
    const expected = generateReferringDoctors(1_200);
    expect(rows.map((row) => row.provider_number).sort()).toEqual(expected.map((doctor) => doctor.providerNumber).sort());
    const first = expected[0];
    const stored = rows.find((row) => row.provider_number === first?.providerNumber);
    expect(stored?.search_text).toBe(
      `${first?.firstName} ${first?.lastName} ${first?.practiceName} ${first?.city} ${first?.postcode} ${first?.providerNumber}`.toLowerCase(),
    );
  });
});
