import { serverModule } from '../../server-module';
import { defineFhirAccessCheck } from './access';
import { directoryResources } from './directory-resources';
import { documentResources } from './document-resources';
import { createFhirRepository } from './repository';
import { schedulingResources } from './scheduling-resources';
import { FHIR_BASE_PATH, registerFhirRoutes } from './routes';

/**
 * The FHIR R4 API (docs/integration/fhir.md): /fhir/R4/metadata for anyone, and read and search of
 * the provider's directory, the bookings' documents and the released reports for machine clients
 * holding an access token with SMART system scopes.
 */
export const fhirModule = serverModule('fhir', ['platform', 'booking'], async (app) => {
  const { deps } = app.portal;
  const { db, clock, config, identity } = deps;
  defineFhirAccessCheck(app, { identity, audience: config.fhirAudience, clock });
  const repository = createFhirRepository(db);
  const base = `${config.publicUrl}${FHIR_BASE_PATH}`;
  await registerFhirRoutes(app, {
    resources: [
      ...directoryResources(repository),
      ...schedulingResources({ repository, store: app.availabilityStore, clock }),
      ...documentResources({ db, storage: deps.storage, clock, base }),
    ],
    base,
    facts: { version: config.appVersion, date: clock.now().toISOString() },
  });
});

export { FHIR_BASE_PATH } from './routes';
