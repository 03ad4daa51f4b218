// /vehicles: listing and search for the booking screen.
import Router from '@koa/router'
import { vehicles } from '../services/vehicles'
import { TelematicsClient } from '../services/telematics'

export const vehicleRoutes = new Router({ prefix: '/vehicles' })
const telematics = new TelematicsClient()

vehicleRoutes.get('/', async (ctx) => {
  ctx.body = await vehicles.list({ make: ctx.query.make as string, orderBy: ctx.query.order as string })
})

vehicleRoutes.get('/fuel/:fuel', async (ctx) => {
  ctx.body = await vehicles.byFuel(ctx.params.fuel)
})

vehicleRoutes.get('/seats', async (ctx) => {
  ctx.body = await vehicles.withSeats(Number.parseInt(String(ctx.query.min ?? '2'), 10))
})

vehicleRoutes.get('/notes', async (ctx) => {
  ctx.body = await vehicles.searchNotes(String(ctx.query.q ?? ''))
})

vehicleRoutes.get('/mileage/:year', async (ctx) => {
  ctx.body = await vehicles.mileageReport(ctx.params.year)
})

vehicleRoutes.get('/:id/position', async (ctx) => {
  ctx.body = await telematics.position(ctx.params.id)
})

vehicleRoutes.post('/:id/alerts/test', async (ctx) => {
  const { webhook } = ctx.request.body as { webhook: string }
  await telematics.forwardAlert(webhook, { vehicle: ctx.params.id, kind: 'test' })
  ctx.status = 202
})
