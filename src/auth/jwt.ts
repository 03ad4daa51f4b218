/**
 * Bearer tokens. HS256 with AUTH_JWT_SECRET; RS256/ES256 with AUTH_JWT_PUBLIC_KEY or
 * AUTH_JWKS_URL. The key is chosen from the token's `alg` among the configured families only,
 * so `alg: none` and algorithm confusion (an HS256 token signed with the public key) fail.
 */
import { createPublicKey, type KeyObject } from 'node:crypto'
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { UnauthenticatedError } from '../errors.ts'
import { isScope, type Caller, type Scope } from './caller.ts'

export interface JwtSettings {
  jwtSecret?: string | undefined
  jwtPublicKey?: string | undefined
  jwksUrl?: string | undefined
  issuer?: string | undefined
  audience?: string | undefined
}

type Verifier = (token: string) => Promise<JWTPayload>

const CLOCK_TOLERANCE_SECONDS = 5

export function createJwtVerifier(settings: JwtSettings): Verifier | undefined {
  const secret = settings.jwtSecret ? new TextEncoder().encode(settings.jwtSecret) : undefined
  const publicKey = settings.jwtPublicKey ? createPublicKey(settings.jwtPublicKey) : undefined
  const jwks: JWTVerifyGetKey | undefined = settings.jwksUrl ? createRemoteJWKSet(new URL(settings.jwksUrl)) : undefined
  if (!secret && !publicKey && !jwks) return undefined
  const asymmetricAlgorithms = publicKey ? [algorithmOf(publicKey)] : ['RS256', 'ES256']
  const claims = {
    ...(settings.issuer ? { issuer: settings.issuer } : {}),
    ...(settings.audience ? { audience: settings.audience } : {}),
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
  }

  return async (token) => {
    const algorithm = headerAlgorithm(token)
    if (algorithm === 'HS256' && secret) {
      return (await jwtVerify(token, secret, { ...claims, algorithms: ['HS256'] })).payload
    }
    if (asymmetricAlgorithms.includes(algorithm) && publicKey) {
      return (await jwtVerify(token, publicKey, { ...claims, algorithms: asymmetricAlgorithms })).payload
    }
    if (asymmetricAlgorithms.includes(algorithm) && jwks) {
      return (await jwtVerify(token, jwks, { ...claims, algorithms: asymmetricAlgorithms })).payload
    }
    throw new UnauthenticatedError(`Token algorithm "${algorithm}" is not accepted`)
  }
}

function algorithmOf(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256'
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256'
  throw new Error('AUTH_JWT_PUBLIC_KEY must be an RSA key or an EC P-256 key')
}

function headerAlgorithm(token: string): string {
  try {
    return decodeProtectedHeader(token).alg ?? 'none'
  } catch {
    throw new UnauthenticatedError('Malformed bearer token')
  }
}

/** Maps verified claims to the caller: sub, org_id, scope (space-separated) or scopes (array). */
export function callerFromClaims(payload: JWTPayload): Caller {
  const orgId = typeof payload['org_id'] === 'string' && payload['org_id'] !== '' ? payload['org_id'] : null
  const userId = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : null
  return { orgId, userId, scopes: scopesFromClaims(payload), via: 'jwt' }
}

function scopesFromClaims(payload: JWTPayload): Set<Scope> {
  const listed: unknown[] = []
  if (typeof payload['scope'] === 'string') listed.push(...payload['scope'].split(/\s+/))
  if (Array.isArray(payload['scopes'])) listed.push(...payload['scopes'])
  return new Set(listed.filter((value): value is Scope => typeof value === 'string' && isScope(value)))
}

export interface MintOptions {
  secret: string
  orgId: string
  userId: string
  scopes: readonly Scope[]
  /** seconds */
  expiresIn: number
  issuer?: string | undefined
  audience?: string | undefined
}

/** An HS256 token for local use (the CLI's `token` command and the tests). */
export async function mintToken(options: MintOptions): Promise<string> {
  let builder = new SignJWT({ org_id: options.orgId, scope: options.scopes.join(' ') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + options.expiresIn)
  if (options.issuer) builder = builder.setIssuer(options.issuer)
  if (options.audience) builder = builder.setAudience(options.audience)
  return builder.sign(new TextEncoder().encode(options.secret))
}
