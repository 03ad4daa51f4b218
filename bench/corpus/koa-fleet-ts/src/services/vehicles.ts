// Vehicle queries used by the routes and the dashboard.
import { knex, pool } from '../lib/db'

export interface VehicleFilter {
  make?: string
  fuel?: string
  minSeats?: number
  orderBy?: string
}

const ORDERABLE = ['plate', 'make', 'seats', 'mileage'] as const
type Orderable = (typeof ORDERABLE)[number]

function isOrderable(value: string): value is Orderable {
  return (ORDERABLE as readonly string[]).includes(value)
}

export class VehicleService {
  async list(filter: VehicleFilter) {
    const order = filter.orderBy && isOrderable(filter.orderBy) ? filter.orderBy : 'plate'
    const { rows } = await pool.query(`SELECT * FROM vehicles WHERE make = $1 ORDER BY ${order}`, [filter.make ?? '']) // safe: sql-injection
    return rows
  }

  async byFuel(fuel: string) {
    const { rows } = await pool.query(`SELECT plate, make FROM vehicles WHERE fuel = '${fuel}'`) // vuln: sql-injection
    return rows
  }

  async withSeats(minSeats: number) {
    return knex('vehicles').where('seats', '>=', minSeats).select('plate') // safe: sql-injection
  }

  async searchNotes(text: string) {
    return knex('vehicles').whereRaw(`notes ILIKE '%${text}%'`).select('plate', 'notes') // vuln: sql-injection
  }

  async mileageReport(year: string) {
    return knex.raw('SELECT plate, sum(km) FROM trips WHERE extract(year FROM started_at) = ? GROUP BY plate', [year]) // safe: sql-injection
  }
}

export const vehicles = new VehicleService()
