/**
 * The naming systems of the identifiers and codes the FHIR API gives out. The portal's own are
 * under one URN of its own; an Australian provider number is the national one.
 */
export const PORTAL_SYSTEM = 'urn:radiology-portal';

/** The Medicare provider number of a referring doctor (Australian Digital Health Agency's naming system). */
export const PROVIDER_NUMBER_SYSTEM = 'http://ns.electronichealth.net.au/id/medicare-provider-number';
