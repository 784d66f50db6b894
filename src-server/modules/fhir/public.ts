import { createAuditLogRepository } from '../../db/audit-log';
import { serverModule } from '../../server-module';
import { defineFhirAccessCheck } from './access';
import { appointmentPatch } from './appointment-patch';
import { bookOperation } from './book-operation';
import { directoryResources } from './directory-resources';
import { patientResources } from './patient-resources';
import { createPatientsRepository } from './patients-repository';
import { documentResources } from './document-resources';
import { createFhirRepository } from './repository';
import { schedulingResources } from './scheduling-resources';
import { FHIR_BASE_PATH, registerFhirRoutes } from './routes';

/**
 * The FHIR R4 API (docs/integration/fhir.md): /fhir/R4/metadata for anyone; for machine clients
 * holding an access token with SMART system scopes, read and search of the provider's directory,
 * free times, patients' bookings, the bookings' documents and the released reports, booking a free
 * time (Appointment/$book) and cancelling one.
 */
export const fhirModule = serverModule('fhir', ['platform', 'booking'], async (app) => {
  const { deps } = app.portal;
  const { db, clock, config, identity } = deps;
  defineFhirAccessCheck(app, { identity, audience: config.fhirAudience, clock });
  const repository = createFhirRepository(db);
  const patients = createPatientsRepository(db);
  const base = `${config.publicUrl}${FHIR_BASE_PATH}`;
  await registerFhirRoutes(app, {
    resources: [
      ...directoryResources(repository),
      ...schedulingResources({ repository, store: app.availabilityStore, clock }),
      ...patientResources({ repository: patients }),
      ...documentResources({ db, storage: deps.storage, clock, base }),
    ],
    base,
    operations: [bookOperation({ repository, patients, base }), appointmentPatch({ patients })],
    audit: createAuditLogRepository(db),
    facts: { version: config.appVersion, date: clock.now().toISOString() },
  });
});

export { FHIR_BASE_PATH } from './routes';
