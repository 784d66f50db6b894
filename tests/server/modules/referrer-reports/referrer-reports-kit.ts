import { expect } from 'vitest';
import { ReferrerReportsPageSchema, type ReferrerReportsPage } from '@contract/api/referrer-reports';
import type { Database } from '../../../../src-server/db/connection';
import type { StaffBrowser } from '../staff-access/identity-kit';

// Shared by the referrer report list's tests: Riley's 25 reports, another referrer's 4 and one naming nobody.

export const MINE = '2426711A';
export const OTHERS = '4932751K';
export const DAY = 86_400_000;
/**
 * Reports on the seeded appointments: 25 naming MINE (received one hour apart, the newest first in
 * accession order RL-MINE-25 … RL-MINE-01; the odd ones released), 4 naming OTHERS and 1 naming nobody.
 */
export async function addReports(db: Database, now: Date): Promise<void> {
  const rows: { accession: string; provider: string | null; receivedAt: Date; releaseAt: Date }[] = [];
  for (let n = 1; n <= 25; n += 1)
    rows.push({
      accession: `RL-MINE-${String(n).padStart(2, '0')}`,
      provider: MINE,
      receivedAt: new Date(now.getTime() - (30 - n) * 3_600_000),
      releaseAt: new Date(now.getTime() + (n % 2 === 1 ? -DAY : DAY)),
    });
  for (let n = 1; n <= 4; n += 1)
    rows.push({ accession: `RL-OTHER-${n}`, provider: OTHERS, receivedAt: new Date(now.getTime() - n * 60_000), releaseAt: now });
  rows.push({ accession: 'RL-NOBODY-1', provider: null, receivedAt: now, releaseAt: now });
  const appointments = await db.query<{ id: string }>(`select id::text as id from appointment where status <> 'HELD' order by id`);
  // The seed has fewer appointments than reports here: several reports share one (a patient seen again).
  expect(appointments.length).toBeGreaterThan(5);
  for (const [index, row] of rows.entries())
    await db.query(
      `insert into result_report (accession_number, appointment_id, report_text, pdf_key, pdf_sha256, pdf_size, referrer_name,
                                  referrer_provider_number, study_instance_uid, release_at, received_at, delivery_sha256)
       values ($1, $2::uuid, 'Findings: none.', 'rlPdfKey000000000000000', repeat('a', 64), 100, 'Dr Referrer', $3, $4, $5, $6, repeat('b', 64))`,
      [
        row.accession,
        appointments[index % appointments.length]?.id,
        row.provider,
        `1.2.826.0.9.${index + 1}`,
        row.releaseAt.toISOString(),
        row.receivedAt.toISOString(),
      ],
    );
}

/** One page of the referrer's report list as `browser` reads it: 200, never kept by a cache, the contract's shape. */
export async function listReports(browser: StaffBrowser, query: Record<string, string> = {}): Promise<ReferrerReportsPage> {
  const response = await browser.request('GET', `/api/referrer/reports?${new URLSearchParams(query).toString()}`);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return ReferrerReportsPageSchema.parse(response.json());
}
