import { randomUUID } from 'node:crypto';
import type { Queryable } from '../connection';
import { seededRandom } from '../../platform/seeded-random';

/**
 * The demo's referring-doctor directory at real size (docs/rules/check-in.md#referring-doctors):
 * GENERATED_DOCTOR_COUNT fictional Australian doctors, the same ones at every seed. Names come from
 * modest lists combined, so some names repeat, as in a real directory; each doctor practises in a
 * real Australian locality with its real postcode and has a Medicare provider number.
 */

export const GENERATED_DOCTOR_COUNT = 20_000;
/** Rows per insert statement. */
const BATCH_SIZE = 5_000;

export interface GeneratedDoctor {
  providerNumber: string;
  firstName: string;
  lastName: string;
  practiceName: string;
  city: string;
  postcode: string;
}

// prettier-ignore
const FIRST_NAMES = [
  'Sarah', 'Daniel', 'Mei', 'Thomas', 'Aisha', 'James', 'Olivia', 'Benjamin', 'Hannah', 'Rajiv',
  'Grace', 'Liam', 'Chloe', 'Noah', 'Emily', 'William', 'Charlotte', 'Jack', 'Amelia', 'Oliver',
  'Isla', 'Lucas', 'Mia', 'Henry', 'Ava', 'Ethan', 'Zoe', 'Samuel', 'Ruby', 'Alexander',
  'Sophie', 'Matthew', 'Lily', 'Joshua', 'Ella', 'Ryan', 'Priya', 'Arjun', 'Wei', 'Jun',
  'Hiroshi', 'Yuki', 'Minh', 'Linh', 'Fatima', 'Omar', 'Leila', 'Nikos', 'Eleni', 'Giuseppe',
  'Maria', 'Luca', 'Francesca', 'Sean', 'Siobhan', 'Patrick', 'Fiona', 'Andrew', 'Catherine', 'David',
  'Elizabeth', 'Michael', 'Rebecca', 'Christopher', 'Jessica', 'Nathan', 'Laura', 'Peter', 'Anna', 'Stephen',
  'Helen', 'Mark', 'Rachel', 'Paul', 'Natalie', 'Simon', 'Claire', 'Anthony', 'Megan', 'Vikram',
  'Anjali', 'Kwame', 'Amara', 'Tane', 'Aroha', 'Jarrah', 'Kirra', 'Connor', 'Tahlia', 'Hamish',
  'Georgia', 'Angus', 'Matilda', 'Declan', 'Imogen', 'Sanjay', 'Deepa', 'Tuan', 'Hoa', 'Jane',
];

// prettier-ignore
const LAST_NAMES = [
  'Smith', 'Jones', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Johnson', 'White', 'Martin', 'Anderson',
  'Thompson', 'Nguyen', 'Thomas', 'Walker', 'Harris', 'Lee', 'Ryan', 'Robinson', 'Kelly', 'King',
  'Davis', 'Wright', 'Evans', 'Roberts', 'Green', 'Hall', 'Wood', 'Jackson', 'Clarke', 'Patel',
  'Khan', 'Lewis', 'Phillips', 'Mitchell', 'Turner', 'Cooper', 'Campbell', 'Morris', 'Young', 'Hughes',
  'Edwards', 'Baker', 'Chen', 'Wang', 'Li', 'Zhang', 'Liu', 'Tran', 'Le', 'Pham',
  'Singh', 'Kaur', 'Sharma', 'Gupta', 'Murphy', "O'Brien", "O'Connor", 'McDonald', 'Stewart', 'Scott',
  'Murray', 'Reid', 'Ross', 'Fraser', 'Hamilton', 'Graham', 'Watson', 'Sullivan', 'Byrne', 'Gallagher',
  'Doyle', 'Quinn', 'Russo', 'Romano', 'Ricci', 'Esposito', 'Costa', 'Papadopoulos', 'Nikolaidis', 'Georgiou',
  'Kowalczyk', 'Nowak', 'Novak', 'Muller', 'Schmidt', 'Fischer', 'Weber', 'Becker', 'Hoffmann', 'Kim',
  'Park', 'Choi', 'Tanaka', 'Suzuki', 'Sato', 'Yamamoto', 'Hassan', 'Ali', 'Ahmed', 'Ibrahim',
  'Haddad', 'Nasser', 'Fernandes', 'Silva', 'Santos', 'Pereira', 'Lopez', 'Garcia', 'Martinez', 'Rodriguez',
  'Hernandez', 'Cohen', 'Levy', 'Friedman', 'Andersen', 'Nielsen', 'Larsen', 'Johansson', 'Lindqvist', 'Bell',
  'Cook', 'Morgan', 'Bailey', 'Parker', 'Collins', 'Carter', 'Richardson', 'Cox', 'Howard', 'Ward',
  'Brooks', 'Gray', 'Citizen', 'Donovan', 'Ellison', 'Forsyth', 'Galloway', 'Hartley', 'Ingram', 'Jennings',
  'Kavanagh', 'Lachlan', 'Mahoney', 'Nolan', 'Osborne', 'Prescott', 'Radcliffe', 'Sinclair', 'Thornton', 'Vaughan',
];

/** Real Australian localities with their postcodes (NSW, ACT, VIC, QLD, SA, WA, TAS, NT). */
// prettier-ignore
const LOCALITIES: readonly (readonly [city: string, postcode: string])[] = [
  ['Sydney', '2000'], ['Parramatta', '2150'], ['Chatswood', '2067'], ['Bondi Junction', '2022'], ['Liverpool', '2170'],
  ['Penrith', '2750'], ['Blacktown', '2148'], ['Hornsby', '2077'], ['Manly', '2095'], ['Newtown', '2042'],
  ['Bankstown', '2200'], ['Hurstville', '2220'], ['Campbelltown', '2560'], ['Castle Hill', '2154'], ['Randwick', '2031'],
  ['Westmead', '2145'], ['Newcastle', '2300'], ['Charlestown', '2290'], ['Wollongong', '2500'], ['Gosford', '2250'],
  ['Dubbo', '2830'], ['Wagga Wagga', '2650'], ['Orange', '2800'], ['Bathurst', '2795'], ['Tamworth', '2340'],
  ['Coffs Harbour', '2450'], ['Port Macquarie', '2444'], ['Lismore', '2480'], ['Tweed Heads', '2485'], ['Albury', '2640'],
  ['Canberra', '2600'], ['Belconnen', '2617'], ['Melbourne', '3000'], ['Richmond', '3121'], ['St Kilda', '3182'],
  ['Box Hill', '3128'], ['Footscray', '3011'], ['Dandenong', '3175'], ['Frankston', '3199'], ['Geelong', '3220'],
  ['Ballarat', '3350'], ['Bendigo', '3550'], ['Shepparton', '3630'], ['Brisbane', '4000'], ['Fortitude Valley', '4006'],
  ['Chermside', '4032'], ['Southport', '4215'], ['Coolangatta', '4225'], ['Toowoomba', '4350'], ['Ipswich', '4305'],
  ['Cairns', '4870'], ['Townsville', '4810'], ['Mackay', '4740'], ['Rockhampton', '4700'], ['Bundaberg', '4670'],
  ['Maroochydore', '4558'], ['Adelaide', '5000'], ['Glenelg', '5045'], ['Elizabeth', '5112'], ['Mount Gambier', '5290'],
  ['Perth', '6000'], ['Fremantle', '6160'], ['Joondalup', '6027'], ['Bunbury', '6230'], ['Geraldton', '6530'],
  ['Hobart', '7000'], ['Launceston', '7250'], ['Devonport', '7310'], ['Darwin', '0800'], ['Alice Springs', '0870'],
];

/** A practice is named after its locality or a local landmark, then what it does. */
const PRACTICE_PLACES = ['', '', '', 'Central', 'Northside', 'Riverside', 'Parkview', 'Harbourside', 'Station Street', 'High Street'];
// prettier-ignore
const PRACTICE_KINDS = [
  'Medical Centre', 'Family Practice', 'General Practice', 'Family Doctors', 'Medical Clinic', 'Health Centre',
  'Specialist Rooms', 'Orthopaedics', 'Cardiology', 'Sports Medicine', "Women's Health", 'Paediatrics',
  'Respiratory Clinic', 'Gastroenterology', 'Neurology', 'Urology', 'Dermatology', 'Oncology Centre',
];
/** How many practices each locality has (each doctor belongs to one of them). */
const PRACTICES_PER_LOCALITY = 12;

/**
 * Medicare provider number: a 6-digit provider stem, a practice location character and a check
 * character. The check character is (stem digits weighted 3, 5, 8, 4, 2, 1, plus 6 × the practice
 * location value) mod 11, mapped through "YXWTLKJHFBA"; the location value is the character's index
 * in PRACTICE_LOCATION_CHARACTERS (I, O, S and Z are never used). Described at
 * https://clearwater.com.au/code/provider and https://curmi.com/australian-health-identifiers/.
 */
export const PRACTICE_LOCATION_CHARACTERS = '0123456789ABCDEFGHJKLMNPQRTUVWXY';
const CHECK_CHARACTERS = 'YXWTLKJHFBA';
const STEM_WEIGHTS = [3, 5, 8, 4, 2, 1];
const LOCATION_WEIGHT = 6;

export function providerNumberCheckCharacter(stem: string, locationCharacter: string): string {
  const locationValue = PRACTICE_LOCATION_CHARACTERS.indexOf(locationCharacter);
  if (!/^\d{6}$/.test(stem) || locationValue < 0 || locationCharacter.length !== 1) {
    throw new Error(`not a provider stem and location character: ${stem} ${locationCharacter}`);
  }
  const stemSum = STEM_WEIGHTS.reduce((sum, weight, index) => sum + Number(stem[index]) * weight, 0);
  return CHECK_CHARACTERS.charAt((stemSum + locationValue * LOCATION_WEIGHT) % 11);
}

/**
 * Generated stems are a permutation of 100000-479999 (index × a multiplier coprime to the range),
 * so every doctor's number is distinct and none meets the hand-written demo doctors' (480000 and up).
 */
const STEM_FIRST = 100_000;
const STEM_RANGE = 380_000;
const STEM_MULTIPLIER = 7_919;

function pick<T>(list: readonly T[], random: () => number): T {
  const item = list[Math.floor(random() * list.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** The directory: the same `count` doctors every time. */
export function generateReferringDoctors(count = GENERATED_DOCTOR_COUNT): GeneratedDoctor[] {
  if (count > STEM_RANGE) throw new Error(`at most ${STEM_RANGE} generated doctors`);
  const random = seededRandom(13);
  const doctors: GeneratedDoctor[] = [];
  for (let index = 0; index < count; index += 1) {
    const [city, postcode] = pick(LOCALITIES, random);
    const practice = Math.floor(random() * PRACTICES_PER_LOCALITY);
    const place = PRACTICE_PLACES[practice % PRACTICE_PLACES.length] || city;
    const kind = PRACTICE_KINDS[(practice * 7 + postcode.charCodeAt(3)) % PRACTICE_KINDS.length] ?? 'Medical Centre';
    const stem = String(STEM_FIRST + ((index * STEM_MULTIPLIER) % STEM_RANGE));
    const location = pick([...PRACTICE_LOCATION_CHARACTERS], random);
    doctors.push({
      providerNumber: `${stem}${location}${providerNumberCheckCharacter(stem, location)}`,
      firstName: pick(FIRST_NAMES, random),
      lastName: pick(LAST_NAMES, random),
      practiceName: `${place} ${kind}`,
      city,
      postcode,
    });
  }
  return doctors;
}

/** The trigram index of the doctor search (migration 0013); rebuilt once after a bulk load. */
export const DOCTOR_SEARCH_INDEX = 'referring_doctor_search_text_trgm_idx';

/**
 * One doctor per line, fields separated by tabs: the cheapest text for the database to split (a
 * JSON document of 20,000 rows costs several times more to parse). Generated fields never hold a
 * tab or a line break; the check keeps it so.
 */
function asLines(rows: readonly { id: string; doctor: GeneratedDoctor }[]): string {
  return rows
    .map(({ id, doctor }) => {
      const fields = [id, doctor.providerNumber, doctor.firstName, doctor.lastName, doctor.practiceName, doctor.city, doctor.postcode];
      if (fields.some((field) => /[\t\n]/.test(field))) throw new Error('seed: a generated doctor field holds a tab or a line break');
      return fields.join('\t');
    })
    .join('\n');
}

/**
 * Writes the generated directory in the caller's transaction, BATCH_SIZE rows per statement. The
 * ids are made here (node's randomUUID costs far less than the database's gen_random_uuid under
 * PGlite), and rows go in in key order (ids and provider numbers both ascending) so each btree
 * index only grows at its end. The search index is set aside while the rows go in and rebuilt
 * from its own definition after: one build of a GIN index costs a fraction of updating it row by
 * row (PostgreSQL's advice for populating a database). Answers the count.
 */
export async function insertGeneratedReferringDoctors(tx: Queryable, count = GENERATED_DOCTOR_COUNT): Promise<number> {
  const doctors = generateReferringDoctors(count).sort((a, b) => (a.providerNumber < b.providerNumber ? -1 : 1));
  const ids = doctors.map(() => randomUUID()).sort();
  const rows = doctors.map((doctor, index) => ({ id: ids[index] ?? randomUUID(), doctor }));
  const [index] = await tx.query<{ definition: string }>(
    'select indexdef as definition from pg_indexes where schemaname = current_schema() and indexname = $1',
    [DOCTOR_SEARCH_INDEX],
  );
  if (index === undefined) throw new Error(`seed: the index ${DOCTOR_SEARCH_INDEX} is missing (migration 0013)`);
  await tx.query(`drop index ${DOCTOR_SEARCH_INDEX}`);
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    await tx.query(
      `insert into referring_doctor (id, provider_number, first_name, last_name, practice_name, city, postcode)
       select f[1]::uuid, f[2], f[3], f[4], f[5], f[6], f[7]
         from unnest(string_to_array($1, E'\\n')) as line, string_to_array(line, E'\\t') as f`,
      [asLines(rows.slice(start, start + BATCH_SIZE))],
    );
  }
  await tx.query(index.definition);
  return rows.length;
}
