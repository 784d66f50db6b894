// Import zones inside src-web (see docs/architecture.md). Each entry is an ESLint flat-config object.
export const webRules = [];
