// Import zones inside src-server (see docs/architecture.md). Each entry is an ESLint flat-config object.
export const serverRules = [];
