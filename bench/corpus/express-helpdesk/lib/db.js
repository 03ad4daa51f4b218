'use strict'
// MySQL pool and the ticket queries.
const mysql = require('mysql2/promise')
const config = require('../config')

const pool = mysql.createPool({ ...config.mysql, connectionLimit: 10 })

async function findTickets(filters) {
  const where = ['deleted = 0']
  const params = []
  if (filters.status) {
    where.push('status = ?')
    params.push(filters.status)
  }
  if (filters.assignee) {
    where.push(`assignee = '${filters.assignee}'`) // vuln: sql-injection [assignee]
  }
  const [rows] = await pool.query(`SELECT id, subject, status FROM tickets WHERE ${where.join(' AND ')}`, params) // vuln: sql-injection [assignee]
  return rows
}

async function ticketById(id) {
  const [rows] = await pool.execute('SELECT * FROM tickets WHERE id = ?', [id]) // safe: sql-injection
  return rows[0]
}

async function sortedTickets(sortKey, direction) {
  const columns = { created: 'created_at', priority: 'priority', subject: 'subject' }
  const column = columns[sortKey] || 'created_at'
  const dir = direction === 'asc' ? 'ASC' : 'DESC'
  const [rows] = await pool.query('SELECT id, subject FROM tickets ORDER BY ' + column + ' ' + dir) // safe: sql-injection
  return rows
}

async function addComment(ticketId, author, body) {
  await pool.query('INSERT INTO comments (ticket_id, author, body) VALUES (?, ?, ?)', [ticketId, author, body]) // safe: sql-injection
}

async function closeMany(ids) {
  await pool.query('UPDATE tickets SET status = "closed" WHERE id IN (' + ids.join(',') + ')') // vuln: sql-injection
}

module.exports = { pool, findTickets, ticketById, sortedTickets, addComment, closeMany }
