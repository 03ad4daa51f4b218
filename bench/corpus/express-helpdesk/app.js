'use strict'
// Helpdesk HTTP server: middleware, sessions, routers.
const express = require('express')
const session = require('express-session')
const cookieParser = require('cookie-parser')
const cors = require('cors')
const serveIndex = require('serve-index')
const config = require('./config')

const app = express()

app.set('view engine', 'ejs')
app.use(cookieParser())
app.use(session({ secret: config.sessionSecret, resave: false, saveUninitialized: false, cookie: { secure: false, httpOnly: true } })) // vuln: insecure-cookie
app.use('/api/public', cors({ origin: 'https://status.corp.example' })) // safe: cors-misconfiguration
app.use('/api', cors({ origin: true, credentials: true })) // vuln: cors-misconfiguration

app.use('/static', express.static('public', { maxAge: '7d' })) // safe: insecure-permissions
app.use('/exports', express.static('/var/lib/helpdesk/exports'), serveIndex('/var/lib/helpdesk/exports', { icons: true })) // vuln: insecure-permissions

app.use('/auth', require('./routes/auth'))
app.use('/tickets', require('./routes/tickets'))
app.use('/attachments', require('./routes/attachments'))
app.use('/admin', require('./routes/admin'))

app.use((err, req, res, next) => {
  console.error(err)
  res.status(500).send(process.env.NODE_ENV === 'production' ? 'Internal error' : `<pre>${err.stack}</pre>`) // safe: debug-enabled
})

app.listen(config.port, () => console.log(`helpdesk listening on ${config.port}`))
