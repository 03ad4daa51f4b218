'use strict'
// Ticket list, detail page, comments and bulk actions.
const express = require('express')
const escapeHtml = require('escape-html')
const ejs = require('ejs')
const db = require('../lib/db')
const { audit } = require('../lib/mongo')

const router = express.Router()

router.get('/', async (req, res) => {
  const rows = await db.findTickets({ status: req.query.status, assignee: req.query.assignee })
  res.json(rows)
})

router.get('/sorted', async (req, res) => {
  res.json(await db.sortedTickets(req.query.sort, req.query.dir))
})

router.get('/:id', async (req, res) => {
  const ticket = await db.ticketById(req.params.id)
  if (!ticket) {
    return res.status(404).send('<p>No ticket ' + req.params.id + '</p>') // vuln: xss
  }
  res.send(`<h1>${escapeHtml(ticket.subject)}</h1><div class="body">${escapeHtml(ticket.body)}</div>`) // safe: xss
})

router.post('/:id/comments', express.urlencoded({ extended: false }), async (req, res) => {
  await db.addComment(req.params.id, req.session.user, req.body.comment)
  await audit.insertOne({ ticket: Number(req.params.id), action: 'comment', at: new Date() }) // safe: nosql-injection
  res.redirect(`/tickets/${encodeURIComponent(req.params.id)}`) // safe: open-redirect
})

router.post('/close', express.json(), async (req, res) => {
  await db.closeMany(req.body.ids)
  res.sendStatus(204)
})

router.get('/:id/print', async (req, res) => {
  const ticket = await db.ticketById(req.params.id)
  const layout = req.query.layout || '<h1><%= subject %></h1><pre><%= body %></pre>'
  res.send(ejs.render(layout, ticket)) // vuln: template-injection
})

router.get('/:id/summary', async (req, res) => {
  const ticket = await db.ticketById(req.params.id)
  res.render('summary', { ticket, highlight: req.query.highlight }) // safe: template-injection
})

router.get('/search/regex', async (req, res) => {
  const rows = await db.findTickets({})
  const matcher = new RegExp(req.query.pattern, 'i') // vuln: redos
  res.json(rows.filter((row) => matcher.test(row.subject)))
})

router.get('/search/words', async (req, res) => {
  const words = String(req.query.q || '').split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const matcher = new RegExp(words.join('|'), 'i') // safe: redos
  const rows = await db.findTickets({})
  res.json(rows.filter((row) => matcher.test(row.subject)))
})

const EMAIL = /^([a-zA-Z0-9_.-]+)+@[a-zA-Z0-9-]+\.[a-z]{2,}$/ // vuln: redos
const TICKET_CODE = /^HD-\d{6}$/ // safe: redos

router.post('/lookup', express.json(), async (req, res) => {
  if (!EMAIL.test(req.body.email) || !TICKET_CODE.test(req.body.code)) return res.status(400).end()
  res.json(await db.findTickets({ status: 'open' }))
})

module.exports = router
