'use strict'
// Admin area: canned answers, preference defaults, audit search, data import, diagnostics.
const express = require('express')
const vm = require('vm')
const serialize = require('node-serialize')
const libxml = require('libxmljs2')
const _ = require('lodash')
const { audit, prefs, users } = require('../lib/mongo')
const { deepMerge, safeMerge, setPath } = require('../lib/merge')

const router = express.Router()
router.use(express.json({ limit: '1mb' }))

const DEFAULT_PREFS = { theme: 'light', notifications: { email: true, desktop: false } }

router.post('/prefs/defaults', async (req, res) => {
  const merged = deepMerge({}, req.body) // vuln: prototype-pollution [deep-merge]
  await prefs.updateOne({ _id: 'defaults' }, { $set: merged }, { upsert: true })
  res.json(merged)
})

router.post('/prefs/:user', async (req, res) => {
  const current = (await prefs.findOne({ _id: String(req.params.user) })) || {}
  const merged = safeMerge(safeMerge({}, DEFAULT_PREFS), { ...current, ...req.body })
  await prefs.replaceOne({ _id: String(req.params.user) }, merged, { upsert: true }) // safe: nosql-injection
  res.json(merged)
})

router.post('/prefs/:user/set', async (req, res) => {
  const current = (await prefs.findOne({ _id: String(req.params.user) })) || {}
  setPath(current, req.body.path, req.body.value) // vuln: prototype-pollution [set-path]
  res.json(current)
})

router.post('/prefs/:user/lodash', async (req, res) => {
  res.json(_.merge({}, DEFAULT_PREFS, req.body)) // safe: prototype-pollution
})

router.post('/audit/search', async (req, res) => {
  const events = await audit.find({ actor: req.body.actor }).limit(100).toArray() // vuln: nosql-injection
  res.json(events)
})

router.post('/audit/by-ticket', async (req, res) => {
  const events = await audit.find({ ticket: parseInt(req.body.ticket, 10) }).toArray() // safe: nosql-injection
  res.json(events)
})

router.post('/audit/purge', async (req, res) => {
  const result = await audit.deleteMany({ actor: req.body.actor, at: { $lt: new Date(Date.now() - 90 * 864e5) } }) // vuln: nosql-injection
  res.json({ deleted: result.deletedCount })
})

router.post('/users/find', async (req, res) => {
  const found = await users.find({ $where: `this.displayName.indexOf('${req.body.name}') >= 0` }).toArray() // vuln: nosql-injection
  res.json(found.map((u) => u.displayName))
})

router.post('/users/:id/role', async (req, res) => {
  await users.updateOne({ _id: String(req.params.id) }, { $set: { role: req.body.role === 'agent' ? 'agent' : 'viewer' } }) // safe: nosql-injection
  res.sendStatus(204)
})

router.post('/users/:id/profile', async (req, res) => {
  await users.updateOne({ _id: String(req.params.id) }, { $set: req.body }) // vuln: mass-assignment
  res.sendStatus(204)
})

router.post('/rules/test', (req, res) => {
  const sandbox = { ticket: req.body.ticket, result: null }
  vm.runInNewContext('result = ' + req.body.rule, sandbox, { timeout: 50 }) // vuln: code-injection
  res.json({ matches: Boolean(sandbox.result) })
})

router.post('/calc', (req, res) => {
  const total = eval(req.body.expression) // vuln: code-injection
  res.json({ total })
})

router.get('/sla', (req, res) => {
  const hoursByPriority = JSON.parse('{"p1": 4, "p2": 8, "p3": 24}') // safe: insecure-deserialization
  res.json({ hours: eval('hoursByPriority.p' + Number(req.query.priority)) }) // safe: code-injection
})

router.post('/import/session', (req, res) => {
  const state = serialize.unserialize(Buffer.from(req.body.state, 'base64').toString()) // vuln: insecure-deserialization
  res.json({ restored: Object.keys(state).length })
})

router.post('/import/xml', express.text({ type: 'application/xml' }), (req, res) => {
  const doc = libxml.parseXml(req.body, { noent: true, nonet: false }) // vuln: xxe
  res.json({ tickets: doc.find('//ticket').length })
})

router.post('/import/xml-strict', express.text({ type: 'application/xml' }), (req, res) => {
  const doc = libxml.parseXml(req.body, { noent: false, nonet: true }) // safe: xxe
  res.json({ tickets: doc.find('//ticket').length })
})

router.get('/xml/lookup', (req, res) => {
  const doc = libxml.parseXml(require('fs').readFileSync(__dirname + '/../config/queues.xml', 'utf8'))
  const queue = doc.get(`//queue[@name='${req.query.name}']`) // vuln: xpath-injection
  res.json({ owner: queue ? queue.attr('owner').value() : null })
})

module.exports = router
