/**
 * The secrets analyzer of the Parapet engine: finds hard-coded credentials (provider API
 * keys and tokens, private keys, connection strings, passwords and high-entropy values
 * under secret-like names) in any text file, and masks them for display.
 */
export { findSecrets, SECRET_RULES } from './scan.ts'
export { redact } from './redact.ts'
export type { SecretMatch, SecretRule } from './types.ts'
