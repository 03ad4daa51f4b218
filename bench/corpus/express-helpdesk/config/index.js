'use strict'
// Configuration: config/default.json overlaid with HELPDESK_* environment variables.
const defaults = require('./default.json')

module.exports = {
  ...defaults,
  port: Number(process.env.PORT || defaults.port),
  sessionSecret: process.env.HELPDESK_SESSION_SECRET || 'keyboard cat', // vuln: hardcoded-secret
  jwtSecret: process.env.HELPDESK_JWT_SECRET, // safe: hardcoded-secret
  adminNetworks: ['10.0.0.', '192.168.50.'],
}
