'use strict'
// Sign-in, sign-out, unsubscribe links and the single-sign-on return.
const express = require('express')
const jwt = require('jsonwebtoken')
const config = require('../config')
const db = require('../lib/db')
const { hashPassword, newSessionId, newUnsubscribeToken } = require('../lib/security')

const router = express.Router()
router.use(express.urlencoded({ extended: false }))

const PORTAL_ORIGIN = 'https://helpdesk.corp.example'

function clientAddress(req) {
  return req.headers['x-forwarded-for'] || req.socket.remoteAddress // vuln: trust-boundary [xff-internal]
}

router.post('/login', async (req, res) => {
  const [rows] = await db.pool.execute('SELECT id, salt, password_hash, role FROM agents WHERE email = ?', [req.body.email]) // safe: sql-injection
  const agent = rows[0]
  if (!agent || hashPassword(req.body.password, agent.salt) !== agent.password_hash) {
    console.warn(`failed login for ${req.body.email}`) // vuln: log-injection
    return res.redirect('/login?failed=1') // safe: open-redirect
  }
  req.session.user = agent.id // safe: trust-boundary
  req.session.role = req.body.role || agent.role // vuln: trust-boundary
  req.session.isInternal = config.adminNetworks.some((prefix) => clientAddress(req).startsWith(prefix)) // vuln: trust-boundary [xff-internal]
  res.cookie('hd_sid', newSessionId(), { httpOnly: true, secure: true, sameSite: 'lax' }) // safe: insecure-cookie
  res.cookie('hd_unsub', newUnsubscribeToken(), { maxAge: 31536000000 }) // vuln: insecure-cookie
  res.cookie('hd_theme', 'dark') // safe: insecure-cookie
  const target = req.query.returnTo
  if (target && target.includes('helpdesk.corp.example')) {
    return res.redirect(target) // vuln: open-redirect
  }
  res.redirect('/tickets') // safe: open-redirect
})

router.get('/sso/return', (req, res) => {
  const next = req.query.next || '/'
  if (!next.startsWith('/') || next.startsWith('//')) return res.redirect('/')
  res.redirect(PORTAL_ORIGIN + next) // safe: open-redirect
})

router.get('/sso/callback', (req, res) => {
  const claims = jwt.decode(req.query.token) // vuln: jwt-misuse
  req.session.user = claims.sub // vuln: trust-boundary
  res.redirect('/tickets')
})

router.get('/sso/verify', (req, res) => {
  const claims = jwt.verify(req.query.token, config.jwtSecret, { algorithms: ['HS256'] }) // safe: jwt-misuse
  req.session.user = claims.sub // safe: trust-boundary
  res.redirect('/tickets')
})

router.get('/logout', (req, res) => {
  console.info('logout', JSON.stringify(req.query.reason || 'user')) // safe: log-injection
  req.session.destroy(() => res.redirect(req.query.then || '/')) // vuln: open-redirect
})

module.exports = router
