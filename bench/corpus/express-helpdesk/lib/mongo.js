'use strict'
// MongoDB: audit events and per-user preferences.
const { MongoClient } = require('mongodb')
const config = require('../config')

const client = new MongoClient(config.mongoUrl)
const db = client.db()

module.exports = {
  audit: db.collection('audit'),
  prefs: db.collection('preferences'),
  users: db.collection('users'),
}
