/**
 * Bearer tokens. HS256 with AUTH_JWT_SECRET; RS256/ES256 with AUTH_JWT_PUBLIC_KEY or
 * AUTH_JWKS_URL. The key is chosen from the token's `alg` among the configured families only,
 * so `alg: none` and algorithm confusion (an HS256 token signed with the public key) fail.
 *
 * Time rules: `exp` is required and honoured to the second; the lifetime (exp - iat, or
 * exp - now without iat) is at most AUTH_JWT_MAX_LIFETIME; `iat` and `nbf` may lie in the
 * future by at most AUTH_JWT_CLOCK_SKEW (the issuer's clock may run a little ahead of ours).
 * A token that breaks one of them is a 401 saying which.
 */
import { createPublicKey, type KeyObject } from 'node:crypto'
import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { ForbiddenError, UnauthenticatedError } from '../errors.ts'
import { isScope, type Caller, type Scope } from './caller.ts'

export interface JwtSettings {
  jwtSecret?: string | undefined
  jwtPublicKey?: string | undefined
  jwksUrl?: string | undefined
  issuer?: string | undefined
  audience?: string | undefined
  /** longest accepted lifetime of a token, in seconds */
  maxLifetimeSeconds?: number | undefined
  /** how far in the future iat and nbf may lie, in seconds */
  clockSkewSeconds?: number | undefined
}

export const DEFAULT_JWT_MAX_LIFETIME_SECONDS = 24 * 3600
export const DEFAULT_JWT_CLOCK_SKEW_SECONDS = 60

type Verifier = (token: string) => Promise<JWTPayload>

export function createJwtVerifier(settings: JwtSettings): Verifier | undefined {
  const secret = settings.jwtSecret ? new TextEncoder().encode(settings.jwtSecret) : undefined
  const publicKey = settings.jwtPublicKey ? createPublicKey(settings.jwtPublicKey) : undefined
  const jwks: JWTVerifyGetKey | undefined = settings.jwksUrl ? createRemoteJWKSet(new URL(settings.jwksUrl)) : undefined
  if (!secret && !publicKey && !jwks) return undefined
  const asymmetricAlgorithms = publicKey ? [algorithmOf(publicKey)] : ['RS256', 'ES256']
  const policy: LifetimePolicy = {
    maxLifetimeSeconds: settings.maxLifetimeSeconds ?? DEFAULT_JWT_MAX_LIFETIME_SECONDS,
    clockSkewSeconds: settings.clockSkewSeconds ?? DEFAULT_JWT_CLOCK_SKEW_SECONDS,
  }
  const claims = {
    ...(settings.issuer ? { issuer: settings.issuer } : {}),
    ...(settings.audience ? { audience: settings.audience } : {}),
    // jose applies one tolerance to nbf and exp alike: the skew, for nbf; exp is checked exactly below
    clockTolerance: policy.clockSkewSeconds,
  }

  async function verify(token: string): Promise<JWTPayload> {
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

  return async (token) => {
    let payload: JWTPayload
    try {
      payload = await verify(token)
    } catch (error) {
      if (error instanceof errors.JWTExpired && error.claim === 'exp') throw new UnauthenticatedError(EXPIRED)
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf' && error.reason === 'check_failed') throw new UnauthenticatedError(NOT_YET_VALID)
      throw error
    }
    checkLifetime(payload, policy, Date.now() / 1000)
    return payload
  }
}

interface LifetimePolicy {
  maxLifetimeSeconds: number
  clockSkewSeconds: number
}

const EXPIRED = 'Bearer token has expired'
const NOT_YET_VALID = 'Bearer token is not valid yet (nbf claim)'

/** The time rules jose leaves to us (it has checked that exp, iat and nbf are numbers when present). */
function checkLifetime(payload: JWTPayload, policy: LifetimePolicy, now: number): void {
  const { exp, iat } = payload
  if (exp === undefined) throw new UnauthenticatedError('Bearer token has no expiry (exp claim)')
  if (exp <= now) throw new UnauthenticatedError(EXPIRED)
  if (iat !== undefined && iat > now + policy.clockSkewSeconds) throw new UnauthenticatedError('Bearer token is issued in the future (iat claim)')
  if (exp - (iat ?? now) > policy.maxLifetimeSeconds) {
    throw new UnauthenticatedError(`Bearer token lives too long: its lifetime exceeds the maximum of ${policy.maxLifetimeSeconds} seconds`)
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

/**
 * Maps verified claims to the caller: sub, org_id, scope (space-separated) or scopes (array).
 * A token without an organization authenticates nobody who can do anything: it is refused here
 * (403), and an org_id that is not a string is a malformed token (401), never coerced.
 */
export function callerFromClaims(payload: JWTPayload): Caller {
  const orgId = payload['org_id']
  if (orgId === undefined || orgId === null || orgId === '') throw new ForbiddenError('No organization found for the caller')
  if (typeof orgId !== 'string') throw new UnauthenticatedError('Bearer token has an invalid org_id claim (expected a string)')
  const userId = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : null
  return { orgId, userId, scopes: scopesFromClaims(payload), via: 'jwt', ...(payload.exp !== undefined && { expiresAt: new Date(payload.exp * 1000) }) }
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
