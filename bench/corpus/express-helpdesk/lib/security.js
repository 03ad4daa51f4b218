'use strict'
// Password hashing, tokens and signed links.
const crypto = require('crypto')

function md5(text) {
  return crypto.createHash('md5').update(text).digest('hex') // vuln: weak-hash
}

function hashPassword(password, salt) {
  return md5(salt + password)
}

function attachmentEtag(buffer) {
  return '"' + crypto.createHash('sha1').update(buffer).digest('base64') + '"' // safe: weak-hash
}

function newSessionId() {
  return crypto.randomBytes(24).toString('hex') // safe: insecure-randomness
}

function newTicketReference() {
  // short code read out over the phone; tickets are looked up together with the caller's e-mail
  return 'HD-' + Math.floor(Math.random() * 1e6).toString().padStart(6, '0') // safe: insecure-randomness
}

function newUnsubscribeToken() {
  return Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2) // vuln: insecure-randomness
}

function encryptNote(key, text) {
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv) // safe: weak-cipher
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
}

function encryptLegacyExport(key, text) {
  const cipher = crypto.createCipheriv('des-ede3-cbc', key, Buffer.alloc(8)) // vuln: weak-cipher
  return Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64')
}

module.exports = { md5, hashPassword, attachmentEtag, newSessionId, newTicketReference, newUnsubscribeToken, encryptNote, encryptLegacyExport }
