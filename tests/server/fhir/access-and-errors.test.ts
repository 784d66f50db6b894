import type { Bundle, OperationOutcome } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { auditSince } from '../modules/appointments/self-service-kit';
import { lastAuditId } from '../modules/patient-access/sign-in-kit';
import { expectValidR4 } from './helpers/r4-validation';
import { useFhirServer } from './helpers/fhir-server';
import { backends } from '../helpers/database';

// Who may call the FHIR API (a token of the identity provider for the FHIR audience, with a scope
// for the resource) and how every refusal and bad request is answered: an OperationOutcome, valid R4,
// with the status and WWW-Authenticate of RFC 6750; nothing changes, and refusals are audited.

async function expectOutcome(response: Response, status: number, code: string): Promise<OperationOutcome> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const outcome = (await response.json()) as OperationOutcome;
  expectValidR4(outcome);
  expect(outcome.issue[0]?.code).toBe(code);
  return outcome;
}

describe.each(backends())('on %s', (backend) => {
  const fixture = useFhirServer(backend);

  async function get(url: string, token?: string): Promise<Response> {
    return fetch(`${fixture.base()}${url}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  }

  describe('FHIR access', () => {
    it('answers 401 with WWW-Authenticate without a token or with one that is not valid, and audits it', async () => {
      const before = await lastAuditId(fixture.server.db);
      const missing = await get('/Location');
      await expectOutcome(missing, 401, 'login');
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="fhir"');
      const forged = `${(await fixture.token('system/*.rs')).slice(0, -4)}AAAA`;
      for (const token of ['not-a-jwt', forged]) {
        const refused = await get('/Location', token);
        await expectOutcome(refused, 401, 'login');
        expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="fhir", error="invalid_token"');
      }
      const rows = await auditSince(fixture.server.db, before);
      expect(rows.map((row) => [row.action, row.details.reason])).toEqual([
        ['authorization_failed', 'fhir_token_missing'],
        ['authorization_failed', 'fhir_token_malformed'],
        ['authorization_failed', 'fhir_token_bad_signature'],
      ]);
      expect(JSON.stringify(rows)).not.toContain(forged);
    });

    it('answers 403 naming the scope needed when the token’s scopes do not cover the resource', async () => {
      const token = await fixture.token('system/Practitioner.rs system/Location.r');
      expect((await get('/Practitioner?_count=1', token)).status).toBe(200);
      const search = await get('/Location', token);
      await expectOutcome(search, 403, 'forbidden');
      expect(search.headers.get('www-authenticate')).toBe('Bearer realm="fhir", error="insufficient_scope", scope="system/Location.s"');
      await expectOutcome(await get('/Slot?schedule=x', token), 403, 'forbidden');
    });

    it('accepts SMART v1 scopes', async () => {
      const token = await fixture.token('system/Location.read');
      expect((await get('/Location?_count=1', token)).status).toBe(200);
    });

    it('serves the CapabilityStatement to anyone', async () => {
      const response = await get('/metadata');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
      expectValidR4(await response.json());
    });
  });

  describe('bad FHIR requests', () => {
    it.each([
      ['/Location?colour=blue', 400, 'not-supported'],
      ['/Location?name:exact=Parramatta', 400, 'not-supported'],
      ['/Location?_count=0', 400, 'invalid'],
      ['/Location?_count=101', 400, 'invalid'],
      ['/Location?_count=ten', 400, 'invalid'],
      ['/Location?_count=1&_count=2', 400, 'invalid'],
      ['/Location?_cursor=bm90LWEtY3Vyc29y', 400, 'invalid'],
      ['/Location?_format=xml', 400, 'not-supported'],
      ['/Location/not_an_id', 400, 'invalid'],
      ['/Location/00000000-0000-4000-8000-00000000dead', 404, 'not-found'],
      ['/Location/1', 404, 'not-found'],
      ['/Observation', 404, 'not-supported'],
      ['/Slot', 400, 'invalid'],
      ['/Slot?schedule=Schedule/zz', 400, 'invalid'],
      ['/Slot?schedule=1-1&start=tomorrow', 400, 'invalid'],
      ['/Slot?schedule=1-1&status=open', 400, 'invalid'],
      ['/Schedule?actor=Patient/1/2', 400, 'invalid'],
      ['/Slot/1-1-zz', 404, 'not-found'],
    ])('%s answers %i %s', async (url, status, code) => {
      await expectOutcome(await get(url, await fixture.token('system/*.rs')), status, code);
    });
  });

  describe('FHIR writes', () => {
    it('has none yet: a create is a 404 OperationOutcome; a FHIR JSON body that does not parse a 400', async () => {
      const token = await fixture.token('system/*.cruds');
      for (const [type, body, status, code] of [
        ['application/fhir+json', JSON.stringify({ resourceType: 'Location', name: 'New clinic' }), 404, 'not-supported'],
        ['application/fhir+json', '{"resourceType":', 400, 'invalid'],
        ['application/xml', '<Location/>', 404, 'not-supported'],
      ] as const) {
        const response = await fetch(`${fixture.base()}/Location`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': type },
          body,
        });
        await expectOutcome(response, status, code);
      }
      const [row] = await fixture.server.db.query<{ count: number }>(`select count(*)::int as count from clinic where name = 'New clinic'`);
      expect(row?.count).toBe(0);
    });
  });

  describe('FHIR search paging', () => {
    it('stays stable when clinics are added between pages: nothing repeats, nothing is skipped', async () => {
      const token = await fixture.token('system/Location.rs');
      const db = fixture.server.db;
      const ids: string[] = [];
      let page = (await (await get('/Location?_count=2', token)).json()) as Bundle;
      ids.push(...(page.entry ?? []).map((entry) => entry.resource?.id ?? ''));
      const before = (await db.query<{ id: string }>('select id::text as id from clinic order by id')).map((row) => row.id);
      // One clinic sorts before the page already read, one after it.
      for (const [id, slug] of [
        ['00000000-0000-4000-8000-000000000001', 'fhir-paging-first'],
        ['ffffffff-ffff-4fff-8fff-ffffffffffff', 'fhir-paging-last'],
      ]) {
        await db.query(
          `insert into clinic (id, slug, region_id, name, street, suburb, state, postcode, phone, latitude, longitude, time_zone)
           select $1, $2, id, 'Paging clinic', '1 Test St', 'Testville', 'NSW', '2000', '02 9000 0000', -33.8, 151.2, 'Australia/Sydney'
             from region limit 1`,
          [id, slug],
        );
      }
      for (let next = page.link?.find((link) => link.relation === 'next')?.url; next !== undefined;) {
        const response = await fetch(next, { headers: { authorization: `Bearer ${token}` } });
        page = (await response.json()) as Bundle;
        expectValidR4(page);
        ids.push(...(page.entry ?? []).map((entry) => entry.resource?.id ?? ''));
        next = page.link?.find((link) => link.relation === 'next')?.url;
      }
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...before, 'ffffffff-ffff-4fff-8fff-ffffffffffff']);
    });
  });
});
