// Fleet API server: Koa app, sessions, CORS and the routers.
import cors from '@koa/cors'
import Koa from 'koa'
import { koaBody } from 'koa-body'
import session from 'koa-session'
import { config } from './config'
import { authRoutes } from './routes/auth'
import { bookingRoutes } from './routes/bookings'
import { damageRoutes } from './routes/damage'
import { dashboardRoutes } from './routes/dashboard'
import { vehicleRoutes } from './routes/vehicles'

const app = new Koa()
app.keys = config.sessionKeys
app.proxy = true

app.use(cors({ origin: (ctx) => ctx.get('Origin'), credentials: true })) // vuln: cors-misconfiguration
app.use(session({ key: 'fleet.sess', httpOnly: true, secure: true, sameSite: 'lax', signed: true }, app)) // safe: insecure-cookie
app.use(koaBody({ multipart: true, formidable: { maxFileSize: 10 * 1024 * 1024 } }))

app.use(async (ctx, next) => {
  try {
    await next()
  } catch (err) {
    ctx.status = 500
    ctx.body = { error: 'internal error' } // safe: debug-enabled
    ctx.app.emit('error', err, ctx)
  }
})

for (const router of [authRoutes, bookingRoutes, damageRoutes, dashboardRoutes, vehicleRoutes]) {
  app.use(router.routes()).use(router.allowedMethods())
}

app.listen(config.port)
