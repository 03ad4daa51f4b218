/**
 * How a credential travels: an API key (pk_...) in X-API-Key, anything else as a bearer token;
 * over WebSocket the same in graphql-ws `connectionParams` (as the server's authenticator reads them).
 */
export function isApiKey(credential: string): boolean {
  return credential.startsWith('pk_')
}

function bearer(credential: string): string {
  return `Bearer ${credential.replace(/^Bearer\s+/i, '')}`
}

export function credentialHeaders(credential: string): Record<string, string> {
  return isApiKey(credential) ? { 'X-API-Key': credential } : { Authorization: bearer(credential) }
}

export function credentialConnectionParams(credential: string): Record<string, string> {
  return isApiKey(credential) ? { apiKey: credential } : { authorization: bearer(credential) }
}
