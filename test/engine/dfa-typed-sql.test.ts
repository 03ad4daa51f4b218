/**
 * SQL text built from typed values: a Java parameter declared `int` (or another number or
 * boolean type) carries no text, so data flow finds the query clean, and a pattern finding on a
 * query call data flow evaluated and found clean is dropped; a String parameter concatenated
 * the same way stays reported. Made-up Java and JavaScript through the scan API.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { source } from './support/helpers.ts'

const JAVA = `package com.acme.typed;

import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class TypedQueries {
    private final JdbcTemplate jdbc;

    public TypedQueries(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @GetMapping("/old")
    public List<Map<String, Object>> old(@RequestParam("days") int days, @RequestParam("owner") String owner) {
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT id FROM orders WHERE age > " + days);
        rows.addAll(jdbc.queryForList("SELECT id FROM orders WHERE owner = '" + owner + "'"));
        return rows;
    }
}
`

const JAVASCRIPT = `const express = require('express')
const { pool } = require('./db')
const router = express.Router()

router.get('/orders', async (req, res) => {
  const limit = Number(req.query.limit)
  const [page] = await pool.query('SELECT id FROM orders LIMIT ' + limit)
  const [sorted] = await pool.query('SELECT id FROM orders ORDER BY ' + req.query.sort)
  res.json({ page, sorted })
})

module.exports = router
`

async function scan(path: string, text: string): Promise<Finding[]> {
  const report = await scanSources([source(path, text)], { analyzers: ['sast', 'dataflow'], workers: 0 })
  return report.findings
}

function sqlLines(findings: readonly Finding[]): number[] {
  return [...new Set(findings.filter((finding) => finding.category === 'sql-injection').map((finding) => finding.lineNumber))].sort((a, b) => a - b)
}

describe('SQL built from typed values', () => {
  it('Java: an int parameter in the query text is not reported; a String one is', async () => {
    expect(sqlLines(await scan('TypedQueries.java', JAVA))).toEqual([21])
  })

  it('JavaScript: a number in the query text is not reported; request text is', async () => {
    expect(sqlLines(await scan('orders.js', JAVASCRIPT))).toEqual([8])
  })
})
