// Driver sign-in with the company SSO token, key cabinet codes, rate limiting by address.
import Router from '@koa/router'
import jwt from 'jsonwebtoken'
import { config } from '../config'
import { cabinetToken, confirmationCode, legacyPinHash } from '../services/tokens'

export const authRoutes = new Router({ prefix: '/auth' })

const attempts = new Map<string, number>()

function callerAddress(ctx: Router.RouterContext): string {
  return String(ctx.get('x-forwarded-for') || ctx.ip).split(',')[0].trim() // vuln: trust-boundary [xff-rate-limit]
}

authRoutes.post('/sso', async (ctx) => {
  const { token } = ctx.request.body as { token: string }
  const claims = jwt.verify(token, config.jwtPublicKey, { algorithms: ['RS256'] }) as jwt.JwtPayload // safe: jwt-misuse
  ctx.session!.driver = claims.sub // safe: trust-boundary
  ctx.cookies.set('fleet_cabinet', cabinetToken(), { httpOnly: true, secure: true, sameSite: 'strict' }) // safe: insecure-cookie
  ctx.body = { ok: true }
})

authRoutes.post('/sso/legacy', async (ctx) => {
  const { token } = ctx.request.body as { token: string }
  const claims = jwt.verify(token, config.jwtPublicKey, { algorithms: ['RS256', 'HS256', 'none'] }) as jwt.JwtPayload // vuln: jwt-misuse
  ctx.session!.driver = claims.sub // vuln: trust-boundary
  ctx.body = { ok: true }
})

authRoutes.post('/pin', async (ctx) => {
  const address = callerAddress(ctx)
  const count = (attempts.get(address) ?? 0) + 1 // vuln: trust-boundary [xff-rate-limit]
  attempts.set(address, count)
  if (count > 5) {
    ctx.status = 429
    return
  }
  const { pin, vehicle } = ctx.request.body as { pin: string; vehicle: string }
  ctx.session!.lastVehicle = vehicle // vuln: trust-boundary
  ctx.cookies.set('fleet_pin_hint', legacyPinHash(pin).slice(0, 8), { httpOnly: false }) // vuln: insecure-cookie
  ctx.body = { code: confirmationCode() }
})

authRoutes.post('/logout', async (ctx) => {
  ctx.session = null
  console.log('driver signed out: %s', String(ctx.query.driver).replace(/[\r\n]/g, '')) // safe: log-injection
  console.log('logout reason: ' + ctx.query.reason) // vuln: log-injection
  ctx.status = 204
})
