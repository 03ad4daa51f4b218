'use strict'
// Ticket attachments: download, thumbnails, virus scan, fetching a file from a URL.
const express = require('express')
const fs = require('fs')
const https = require('https')
const path = require('path')
const { execFile } = require('child_process')
const axios = require('axios')
const config = require('../config')
const { attachmentEtag } = require('../lib/security')

const router = express.Router()
const ROOT = config.attachmentDir

router.get('/:ticket/:name', (req, res) => {
  res.sendFile(req.params.name, { root: path.join(ROOT, String(Number(req.params.ticket))) }) // safe: path-traversal
})

router.get('/raw', (req, res) => {
  const file = path.join(ROOT, req.query.ticket, req.query.name) // vuln: path-traversal [raw]
  fs.createReadStream(file).pipe(res) // vuln: path-traversal [raw]
})

router.get('/checked', (req, res) => {
  const file = path.resolve(ROOT, req.query.file) // safe: path-traversal [checked]
  if (!file.startsWith(ROOT + path.sep)) return res.status(400).send('bad path')
  const data = fs.readFileSync(file) // safe: path-traversal [checked]
  res.set('ETag', attachmentEtag(data)).send(data)
})

router.get('/prefix-only', (req, res) => {
  const requested = req.query.file
  if (!requested.startsWith('tickets/')) return res.status(400).end()
  res.download(path.join(ROOT, requested)) // vuln: path-traversal
})

router.delete('/:ticket/:name', (req, res) => {
  fs.unlink(`${ROOT}/${req.params.ticket}/${path.basename(req.params.name)}`, (err) => { // vuln: path-traversal
    res.sendStatus(err ? 404 : 204)
  })
})

router.post('/:ticket/:name/scan', (req, res) => {
  const file = path.join(ROOT, String(Number(req.params.ticket)), path.basename(req.params.name)) // safe: path-traversal
  execFile('clamdscan', ['--no-summary', file], (err, stdout) => { // safe: command-injection
    res.json({ clean: !err, report: stdout })
  })
})

router.post('/:ticket/:name/thumbnail', (req, res) => {
  const { exec } = require('child_process')
  const size = req.query.size || '200x200'
  exec(`convert "${ROOT}/${Number(req.params.ticket)}/${path.basename(req.params.name)}" -thumbnail ${size} /tmp/thumb.png`, (err) => { // vuln: command-injection
    if (err) return res.status(500).end()
    res.sendFile('/tmp/thumb.png')
  })
})

router.post('/disk-report', (req, res) => {
  require('child_process').exec('du -sh ' + ROOT, (err, stdout) => { // safe: command-injection
    res.type('text/plain').send(stdout)
  })
})

router.post('/import', express.json(), async (req, res) => {
  const response = await axios.get(req.body.url, { responseType: 'arraybuffer', timeout: 10000 }) // vuln: ssrf
  const name = path.basename(new URL(req.body.url).pathname) || 'download.bin'
  fs.writeFileSync(path.join(ROOT, 'imports', name), response.data) // safe: path-traversal
  fs.chmodSync(path.join(ROOT, 'imports', name), 0o666) // vuln: insecure-permissions
  res.status(201).json({ name })
})

const MIRROR_HOSTS = ['files.vendor-support.example', 'downloads.vendor-support.example']

router.post('/import/vendor', express.json(), async (req, res) => {
  const url = new URL(req.body.url) // safe: ssrf [vendor-mirror]
  if (url.protocol !== 'https:' || !MIRROR_HOSTS.includes(url.hostname)) return res.status(400).end()
  const response = await axios.get(url.toString(), { responseType: 'arraybuffer', httpsAgent: new https.Agent({ rejectUnauthorized: false }) }) // vuln: tls-verification-disabled; safe: ssrf [vendor-mirror]
  res.send(response.data)
})

module.exports = router
