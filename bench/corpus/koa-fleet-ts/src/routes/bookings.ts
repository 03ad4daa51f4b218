// Bookings: import from the HR system (XML and YAML), pricing formulas, reminders.
import Router from '@koa/router'
import yaml from 'js-yaml'
import { parseStringPromise } from 'xml2js'
import { pool } from '../lib/db'

export const bookingRoutes = new Router({ prefix: '/bookings' })

const RATE_BY_CLASS: Record<string, number> = { compact: 0.32, van: 0.55, electric: 0.18 }

bookingRoutes.post('/import/xml', async (ctx) => {
  const doc = await parseStringPromise(ctx.request.body as string, { explicitArray: false }) // safe: xxe
  ctx.body = { bookings: [].concat(doc.bookings.booking ?? []).length }
})

bookingRoutes.post('/import/yaml', async (ctx) => {
  const data = yaml.load(ctx.request.body as string) as { bookings?: unknown[] } // safe: insecure-deserialization
  ctx.body = { bookings: data.bookings?.length ?? 0 }
})

bookingRoutes.get('/:id/cost', async (ctx) => {
  const { rows } = await pool.query('SELECT class, km FROM bookings WHERE id = $1', [ctx.params.id]) // safe: sql-injection
  const rate = RATE_BY_CLASS[rows[0]?.class] ?? 0.4
  const formula = String(ctx.query.formula ?? 'km * rate')
  const cost = new Function('km', 'rate', `return ${formula}`)(rows[0]?.km ?? 0, rate) // vuln: code-injection
  ctx.body = { cost }
})

bookingRoutes.get('/:id/cost/standard', async (ctx) => {
  const { rows } = await pool.query('SELECT class, km FROM bookings WHERE id = $1', [ctx.params.id])
  const compute = new Function('km', 'rate', 'return Math.round(km * rate * 100) / 100') // safe: code-injection
  ctx.body = { cost: compute(rows[0]?.km ?? 0, RATE_BY_CLASS[rows[0]?.class] ?? 0.4) }
})

bookingRoutes.patch('/:id', async (ctx) => {
  const changes = ctx.request.body as Record<string, unknown>
  const columns = Object.keys(changes)
  const assignments = columns.map((column, i) => `${column} = $${i + 2}`).join(', ')
  await pool.query(`UPDATE bookings SET ${assignments} WHERE id = $1`, [ctx.params.id, ...Object.values(changes)]) // vuln: sql-injection
  ctx.status = 204
})

bookingRoutes.get('/export.csv', async (ctx) => {
  const filename = String(ctx.query.name ?? 'bookings').replace(/[^\w-]/g, '_')
  ctx.set('Content-Disposition', `attachment; filename="${filename}.csv"`) // safe: header-injection
  ctx.type = 'text/csv'
  const { rows } = await pool.query('SELECT id, driver, vehicle FROM bookings')
  ctx.body = rows.map((r) => `${r.id},${r.driver},${r.vehicle}`).join('\n')
})
