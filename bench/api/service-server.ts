/** The service's API server alone (no worker), over the benchmark database. */
import { createAuthenticator } from '../../src/auth/authenticate.ts'
import { connectDatabase } from '../../src/db/orm.ts'
import { startApiServer } from '../../src/http/app.ts'
import { createLogger } from '../../src/logger.ts'
import { DEFAULT_UPLOAD_LIMITS } from '../../src/runtime.ts'

const orm = await connectDatabase({ url: process.env['DATABASE_URL'] ?? '', poolSize: 10 })
const server = await startApiServer({ runtime: { orm, limits: DEFAULT_UPLOAD_LIMITS }, authenticate: createAuthenticator(orm, {}), logger: createLogger('error'), host: '127.0.0.1', port: Number(process.env['PORT']) })
process.send?.('ready')
process.on('SIGTERM', () => void server.close().then(() => orm.close()).then(() => process.exit(0)))
