/**
 * The browser's autofill for each of a patient's details (the autocomplete attribute), wherever
 * they are asked: the booking form and the chat. A Medicare number or a validation code is never
 * filled in from another site's memory.
 */
export const PATIENT_AUTOCOMPLETE = {
  title: 'honorific-prefix',
  firstName: 'given-name',
  lastName: 'family-name',
  dateOfBirth: 'bday',
  email: 'email',
  contactNumber: 'tel-national',
  postalCode: 'postal-code',
  medicareNumber: 'off',
  validationCode: 'off',
} as const;
