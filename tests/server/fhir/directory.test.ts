import type { Bundle, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { expectValidR4 } from './helpers/r4-validation';
import { useFhirServer } from './helpers/fhir-server';
import { backends } from '../helpers/database';

// The provider's directory (clinics, exams, referring doctors) read and searched by a FHIR client
// library written by others (fhir-kit-client), over real HTTP, with a real access token from the
// demo identity provider's client credentials grant; every resource it gets is valid R4.

/** The resources of the first `pages` pages (fewer when the search ends before). */
async function pagesOf(bundle: Bundle, next: (bundle: Bundle) => Promise<Bundle> | undefined, pages: number): Promise<Resource[]> {
  const resources: Resource[] = [];
  let page: Bundle | undefined = bundle;
  for (let read = 0; read < pages && page !== undefined; read += 1) {
    expectValidR4(page);
    resources.push(...(page.entry ?? []).flatMap((entry) => (entry.resource === undefined ? [] : [entry.resource])));
    page = await next(page);
  }
  return resources;
}
describe.each(backends())('on %s', (backend) => {
  const fixture = useFhirServer(backend);

  describe('the FHIR directory through fhir-kit-client', () => {
    it('serves a CapabilityStatement without a token that lists what is served', async () => {
      const statement = (await fixture.fhirClient().capabilityStatement()) as {
        resourceType: string;
        rest: { resource: { type: string }[] }[];
      };
      expectValidR4(statement);
      expect(statement.rest[0]?.resource.map((resource) => resource.type)).toEqual(
        expect.arrayContaining(['Location', 'HealthcareService', 'Practitioner']),
      );
    });

    it.each(['Location', 'HealthcareService', 'Practitioner'] as const)(
      'searches %s page by page and reads each by id',
      async (resourceType) => {
        const client = fixture.fhirClient(await fixture.token(`system/${resourceType}.rs`));
        const first = (await client.search({ resourceType, searchParams: { _count: 2 } })) as unknown as Bundle;
        const resources = await pagesOf(
          first,
          (bundle) => client.nextPage({ bundle: bundle as never }) as unknown as Promise<Bundle> | undefined,
          4,
        );
        expect(resources.length).toBeGreaterThan(2);
        expect(new Set(resources.map((resource) => resource.id)).size).toBe(resources.length);
        for (const resource of resources.slice(0, 3)) {
          const read = (await client.read({ resourceType, id: resource.id ?? '' })) as unknown as Resource;
          expectValidR4(read);
          expect(read).toEqual(resource);
        }
      },
    );

    it('searches by name (any of several starts, any case), identifier and _id', async () => {
      const client = fixture.fhirClient(await fixture.token('system/Location.rs system/Practitioner.rs'));
      const search = async (resourceType: string, searchParams: Record<string, string | string[]>) =>
        ((await client.search({ resourceType, searchParams })) as unknown as Bundle).entry?.map((entry) => entry.resource) ?? [];
      const clinics = await fixture.server.db.query<{ id: string; name: string }>(
        'select id::text as id, name from clinic order by name limit 2',
      );
      const [one, two] = clinics.map((clinic) => clinic);
      const starts = [one?.name.slice(0, 4).toUpperCase() ?? '', two?.name.slice(0, 4).toLowerCase() ?? ''];
      const byName = (await search('Location', { name: starts.join(','), _count: '100' })) as Array<{ name?: string }>;
      expect(byName.map((location) => location.name)).toEqual(expect.arrayContaining([one?.name, two?.name]));
      for (const location of byName)
        expect(starts.some((start) => (location.name ?? '').toLowerCase().startsWith(start.toLowerCase()))).toBe(true);
      const byId = await search('Location', { _id: `${one?.id ?? ''},${two?.id ?? ''}` });
      expect(byId.map((location) => location?.id).sort()).toEqual([one?.id, two?.id].sort());
      // A repeated parameter must match each time, as FHIR says.
      const both = await search('Location', { _id: [`${one?.id ?? ''},${two?.id ?? ''}`, two?.id ?? ''] });
      expect(both.map((location) => location?.id)).toEqual([two?.id]);
      const narrowed = (await search('Location', { name: [starts[0] ?? '', one?.name ?? ''] })) as Array<{ name?: string }>;
      expect(narrowed.map((location) => location.name)).toEqual([one?.name]);

      const [doctor] = await fixture.server.db.query<{ id: string; provider_number: string }>(
        'select id::text as id, provider_number from referring_doctor order by provider_number limit 1',
      );
      const system = 'http://ns.electronichealth.net.au/id/medicare-provider-number';
      for (const identifier of [`${system}|${doctor?.provider_number ?? ''}`, doctor?.provider_number ?? '']) {
        const found = await search('Practitioner', { identifier });
        expect(found.map((practitioner) => practitioner?.id)).toEqual([doctor?.id]);
        expectValidR4(found[0] ?? {});
      }
    });
  });
});
