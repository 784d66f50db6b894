-- The signature a patient draws with a finger at the kiosk (docs/rules/self-service.md#consent-forms),
-- stored beside the typed name. The server re-encodes it as PNG before storing (nothing hidden
-- rides along); null for a form signed by typed name on the website. Staff read it; the patient's
-- own reads never return it.
alter table consent_signature
  add column signature_png bytea
    check (
      signature_png is null
      or (octet_length(signature_png) between 67 and 204800
          and substring(signature_png from 1 for 8) = '\x89504e470d0a1a0a'::bytea)
    );
