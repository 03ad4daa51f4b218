/**
 * Deterministic generator of a mixed-language source tree for the engine benchmark: realistic
 * service code (handlers, data access, helpers, classes) in every supported language, with a
 * small share of vulnerable constructs (command execution, SQL built from strings, eval, weak
 * hashes, disabled TLS checks...) and safe look-alikes, so rules have work to do.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Small, fast, seedable PRNG (mulberry32). */
export function createRng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Rng = () => number

const NOUNS = ['user', 'order', 'invoice', 'account', 'session', 'report', 'product', 'payment', 'ticket', 'profile', 'address', 'cart', 'item', 'message', 'token', 'document', 'comment', 'shipment', 'customer', 'tenant']
const VERBS = ['load', 'save', 'update', 'find', 'create', 'delete', 'sync', 'render', 'validate', 'export', 'import', 'archive', 'resolve', 'compute', 'publish']
const ADJECTIVES = ['active', 'pending', 'recent', 'archived', 'primary', 'default', 'cached', 'remote', 'local', 'shared']

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T
}

function cap(word: string): string {
  return word[0]?.toUpperCase() + word.slice(1)
}

interface Names {
  noun: string
  Noun: string
  verb: string
  adj: string
  fn: string
  Fn: string
  n: number
}

function names(rng: Rng): Names {
  const noun = pick(rng, NOUNS)
  const verb = pick(rng, VERBS)
  const adj = pick(rng, ADJECTIVES)
  const n = Math.floor(rng() * 1000)
  return { noun, Noun: cap(noun), verb, adj, fn: `${verb}${cap(adj)}${cap(noun)}${n}`, Fn: `${cap(verb)}${cap(adj)}${cap(noun)}${n}`, n }
}

/** One language: file extension, a header, units of code (some vulnerable) and a footer. */
interface LanguageTemplate {
  extension: string
  weight: number
  header(rng: Rng, module: string): string
  units: Array<(x: Names) => string>
  vulnerable: Array<(x: Names) => string>
  footer?: string
}

const js: LanguageTemplate = {
  extension: 'js',
  weight: 4,
  header: (_rng, module) => `'use strict'\nconst path = require('node:path')\nconst { execFile } = require('node:child_process')\nconst db = require('../db')\n\n// ${module}: request handlers and helpers\n`,
  units: [
    (x) => `async function ${x.fn}(req, res) {\n  const id = Number(req.params.id)\n  if (!Number.isInteger(id)) {\n    return res.status(400).json({ error: 'invalid id' })\n  }\n  const ${x.noun} = await db.query('SELECT * FROM ${x.noun}s WHERE id = $1', [id])\n  if (!${x.noun}) {\n    return res.status(404).end()\n  }\n  res.json({ ${x.noun}, status: '${x.adj}' })\n}\n`,
    (x) => `function ${x.fn}(items, options = {}) {\n  const limit = options.limit ?? ${x.n}\n  const result = []\n  for (const item of items) {\n    if (item.state !== '${x.adj}') continue\n    result.push({ ...item, label: item.name.trim().toLowerCase() })\n    if (result.length >= limit) break\n  }\n  return result.sort((a, b) => a.label.localeCompare(b.label))\n}\n`,
    (x) => `class ${x.Fn}Service {\n  constructor(repository, logger) {\n    this.repository = repository\n    this.logger = logger\n  }\n\n  async ${x.verb}(id) {\n    this.logger.info('${x.verb} ${x.noun}', { id })\n    const record = await this.repository.get(id)\n    return record ? { ...record, ${x.adj}: true } : null\n  }\n}\n`,
    (x) => `const ${x.fn}Schema = {\n  type: 'object',\n  required: ['id', 'name'],\n  properties: {\n    id: { type: 'integer', minimum: 1 },\n    name: { type: 'string', maxLength: ${x.n + 10} },\n    tags: { type: 'array', items: { type: 'string' } },\n  },\n}\n`,
    (x) => `function ${x.fn}File(root, name) {\n  const safe = path.basename(name)\n  return execFile('gzip', ['-k', path.join(root, safe)], { timeout: ${x.n} })\n}\n`,
  ],
  vulnerable: [
    (x) => `function ${x.fn}Run(req) {\n  const { exec } = require('child_process')\n  exec('convert ' + req.query.file + ' out.png')\n}\n`,
    (x) => `async function ${x.fn}Search(req) {\n  return db.query("SELECT * FROM ${x.noun}s WHERE name = '" + req.query.name + "'")\n}\n`,
    (x) => `function ${x.fn}Eval(req) {\n  return eval(req.body.expression)\n}\n`,
    (x) => `function ${x.fn}Show(req, res) {\n  document.getElementById('${x.noun}').innerHTML = req.query.${x.noun}\n}\n`,
  ],
  footer: '\nmodule.exports = {}\n',
}

const ts: LanguageTemplate = {
  extension: 'ts',
  weight: 4,
  header: (_rng, module) => `import { createHash } from 'node:crypto'\nimport type { Request, Response } from 'express'\nimport { pool } from '../db.ts'\n\n// ${module}\n`,
  units: [
    (x) => `export interface ${x.Fn} {\n  id: number\n  name: string\n  ${x.adj}: boolean\n  createdAt: Date\n  tags: string[]\n}\n`,
    (x) => `export async function ${x.fn}(req: Request, res: Response): Promise<void> {\n  const id = Number(req.params.id)\n  const { rows } = await pool.query('SELECT id, name FROM ${x.noun}s WHERE id = $1', [id])\n  if (rows.length === 0) {\n    res.status(404).json({ error: '${x.noun} not found' })\n    return\n  }\n  res.json(rows[0])\n}\n`,
    (x) => `export function ${x.fn}Digest(payload: string): string {\n  return createHash('sha256').update(payload).digest('hex')\n}\n`,
    (x) => `export class ${x.Fn}Cache<T> {\n  private readonly entries = new Map<string, { value: T; expires: number }>()\n\n  get(key: string): T | undefined {\n    const entry = this.entries.get(key)\n    if (!entry || entry.expires < Date.now()) return undefined\n    return entry.value\n  }\n\n  set(key: string, value: T, ttlMs = ${x.n * 10}): void {\n    this.entries.set(key, { value, expires: Date.now() + ttlMs })\n  }\n}\n`,
  ],
  vulnerable: [
    (x) => `export function ${x.fn}Legacy(password: string): string {\n  return createHash('md5').update(password).digest('hex')\n}\n`,
    (x) => `export async function ${x.fn}Raw(req: Request): Promise<unknown> {\n  return pool.query(\`SELECT * FROM ${x.noun}s WHERE owner = '\${req.query.owner}'\`)\n}\n`,
    (x) => `export function ${x.fn}Run(req: Request): unknown {\n  return new Function('input', req.body.code)(req.body.input)\n}\n`,
  ],
}

const tsx: LanguageTemplate = {
  extension: 'tsx',
  weight: 2,
  header: (_rng, module) => `import React, { useEffect, useState } from 'react'\n\n// ${module}\n`,
  units: [
    (x) => `export function ${x.Fn}List({ items }: { items: Array<{ id: number; name: string }> }) {\n  const [filter, setFilter] = useState('')\n  const visible = items.filter((item) => item.name.includes(filter))\n  return (\n    <div className="${x.noun}-list">\n      <input value={filter} onChange={(event) => setFilter(event.target.value)} />\n      <ul>\n        {visible.map((item) => (\n          <li key={item.id}>{item.name}</li>\n        ))}\n      </ul>\n    </div>\n  )\n}\n`,
    (x) => `export function ${x.Fn}Panel({ id }: { id: number }) {\n  const [data, setData] = useState<string | null>(null)\n  useEffect(() => {\n    fetch(\`/api/${x.noun}s/\${id}\`)\n      .then((response) => response.text())\n      .then(setData)\n  }, [id])\n  return <section aria-busy={data === null}>{data ?? 'Loading ${x.adj} ${x.noun}...'}</section>\n}\n`,
  ],
  vulnerable: [
    (x) => `export function ${x.Fn}Html({ html }: { html: string }) {\n  return <div dangerouslySetInnerHTML={{ __html: html }} />\n}\n`,
  ],
}

const python: LanguageTemplate = {
  extension: 'py',
  weight: 4,
  header: (_rng, module) => `"""${module}: service helpers."""\nimport hashlib\nimport json\nimport os\nimport subprocess\n\nfrom .db import connection\n\n`,
  units: [
    (x) => `def ${x.verb}_${x.adj}_${x.noun}_${x.n}(${x.noun}_id: int) -> dict:\n    with connection() as conn:\n        cursor = conn.cursor()\n        cursor.execute("SELECT id, name FROM ${x.noun}s WHERE id = %s", (${x.noun}_id,))\n        row = cursor.fetchone()\n    if row is None:\n        raise LookupError("${x.noun} not found")\n    return {"id": row[0], "name": row[1], "state": "${x.adj}"}\n\n`,
    (x) => `class ${x.Fn}Repository:\n    def __init__(self, store, ttl=${x.n}):\n        self.store = store\n        self.ttl = ttl\n\n    def get(self, key):\n        value = self.store.get(key)\n        return json.loads(value) if value else None\n\n    def put(self, key, value):\n        self.store.set(key, json.dumps(value), ex=self.ttl)\n\n`,
    (x) => `def ${x.verb}_${x.noun}_archive_${x.n}(path):\n    subprocess.run(["tar", "-czf", path + ".tgz", path], check=True)\n    return hashlib.sha256(path.encode()).hexdigest()\n\n`,
  ],
  vulnerable: [
    (x) => `def run_${x.noun}_${x.n}(request):\n    os.system("convert " + request.args["file"])\n\n`,
    (x) => `def find_${x.noun}_${x.n}(cursor, name):\n    cursor.execute("SELECT * FROM ${x.noun}s WHERE name = '%s'" % name)\n    return cursor.fetchall()\n\n`,
    (x) => `def digest_${x.noun}_${x.n}(password):\n    return hashlib.md5(password.encode()).hexdigest()\n\n`,
    (x) => `def evaluate_${x.noun}_${x.n}(expression):\n    return eval(expression)\n\n`,
  ],
}

const java: LanguageTemplate = {
  extension: 'java',
  weight: 4,
  header: (_rng, module) =>
    `package com.example.${module.replace(/[^a-z]/g, '')};\n\nimport java.sql.Connection;\nimport java.sql.PreparedStatement;\nimport java.sql.ResultSet;\nimport java.sql.SQLException;\nimport java.util.ArrayList;\nimport java.util.List;\n\npublic class ${cap(module.replace(/[^a-z]/g, ''))}Service {\n    private final Connection connection;\n\n    public ${cap(module.replace(/[^a-z]/g, ''))}Service(Connection connection) {\n        this.connection = connection;\n    }\n\n`,
  units: [
    (x) => `    public List<String> ${x.fn}(long id) throws SQLException {\n        List<String> names = new ArrayList<>();\n        try (PreparedStatement statement = connection.prepareStatement("SELECT name FROM ${x.noun}s WHERE id = ?")) {\n            statement.setLong(1, id);\n            try (ResultSet rs = statement.executeQuery()) {\n                while (rs.next()) {\n                    names.add(rs.getString("name"));\n                }\n            }\n        }\n        return names;\n    }\n\n`,
    (x) => `    public int ${x.fn}Count(List<String> values) {\n        int count = 0;\n        for (String value : values) {\n            if (value != null && value.startsWith("${x.adj}")) {\n                count += value.length() % ${x.n + 1};\n            }\n        }\n        return count;\n    }\n\n`,
  ],
  vulnerable: [
    (x) => `    public ResultSet ${x.fn}Search(String name) throws SQLException {\n        java.sql.Statement stmt = connection.createStatement();\n        return stmt.executeQuery("SELECT * FROM ${x.noun}s WHERE name = '" + name + "'");\n    }\n\n`,
    (x) => `    public Process ${x.fn}Run(String file) throws java.io.IOException {\n        return Runtime.getRuntime().exec("convert " + file);\n    }\n\n`,
  ],
  footer: '}\n',
}

const go: LanguageTemplate = {
  extension: 'go',
  weight: 3,
  header: (_rng, module) => `package ${module.replace(/[^a-z]/g, '')}\n\nimport (\n\t"database/sql"\n\t"fmt"\n\t"net/http"\n\t"os/exec"\n)\n\n`,
  units: [
    (x) => `func ${x.Fn}(db *sql.DB, id int64) (string, error) {\n\tvar name string\n\terr := db.QueryRow("SELECT name FROM ${x.noun}s WHERE id = $1", id).Scan(&name)\n\tif err != nil {\n\t\treturn "", fmt.Errorf("${x.verb} ${x.noun}: %w", err)\n\t}\n\treturn name, nil\n}\n\n`,
    (x) => `func ${x.Fn}Handler(w http.ResponseWriter, r *http.Request) {\n\tif r.Method != http.MethodGet {\n\t\thttp.Error(w, "method not allowed", http.StatusMethodNotAllowed)\n\t\treturn\n\t}\n\tw.Header().Set("Content-Type", "application/json")\n\tfmt.Fprintf(w, "{\\"status\\": \\"${x.adj}\\", \\"count\\": %d}", ${x.n})\n}\n\n`,
    (x) => `func ${x.Fn}Archive(path string) error {\n\treturn exec.Command("tar", "-czf", path+".tgz", path).Run()\n}\n\n`,
  ],
  vulnerable: [
    (x) => `func ${x.Fn}Search(db *sql.DB, name string) (*sql.Rows, error) {\n\treturn db.Query("SELECT * FROM ${x.noun}s WHERE name = '" + name + "'")\n}\n\n`,
    (x) => `func ${x.Fn}Shell(r *http.Request) error {\n\treturn exec.Command("sh", "-c", "convert "+r.URL.Query().Get("file")).Run()\n}\n\n`,
  ],
}

const kotlin: LanguageTemplate = {
  extension: 'kt',
  weight: 1,
  header: (_rng, module) => `package com.example.${module.replace(/[^a-z]/g, '')}\n\nimport java.security.MessageDigest\n\n`,
  units: [
    (x) => `data class ${x.Fn}(val id: Long, val name: String, val ${x.adj}: Boolean = false)\n\n`,
    (x) => `fun ${x.fn}(items: List<${'String'}>): Map<String, Int> {\n    return items\n        .filter { it.isNotBlank() }\n        .groupingBy { it.first().toString() }\n        .eachCount()\n}\n\n`,
    (x) => `class ${x.Fn}Service(private val repository: Map<Long, String>) {\n    fun ${x.verb}(id: Long): String? = repository[id]?.trim()\n\n    fun digest(value: String): ByteArray = MessageDigest.getInstance("SHA-256").digest(value.toByteArray())\n}\n\n`,
  ],
  vulnerable: [(x) => `fun ${x.fn}Legacy(value: String): ByteArray = MessageDigest.getInstance("MD5").digest(value.toByteArray())\n\n`],
}

const swift: LanguageTemplate = {
  extension: 'swift',
  weight: 1,
  header: (_rng, module) => `import Foundation\n\n// ${module}\n`,
  units: [
    (x) => `struct ${x.Fn}: Codable {\n    let id: Int\n    let name: String\n    var ${x.adj}: Bool\n}\n\n`,
    (x) => `func ${x.fn}(_ values: [String]) -> [String] {\n    return values\n        .filter { !$0.isEmpty }\n        .map { $0.lowercased() }\n        .sorted()\n}\n\n`,
  ],
  vulnerable: [(x) => `func ${x.fn}Query(name: String) -> String {\n    return "SELECT * FROM ${x.noun}s WHERE name = '\\(name)'"\n}\n\n`],
}

const c: LanguageTemplate = {
  extension: 'c',
  weight: 2,
  header: (_rng, module) => `/* ${module} */\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n`,
  units: [
    (x) => `int ${x.fn}(const char *input, char *out, size_t out_len) {\n    if (input == NULL || out == NULL) {\n        return -1;\n    }\n    snprintf(out, out_len, "${x.noun}:%s", input);\n    return (int)strlen(out);\n}\n\n`,
    (x) => `static long ${x.fn}_sum(const long *values, size_t count) {\n    long total = 0;\n    for (size_t i = 0; i < count; i++) {\n        total += values[i] % ${x.n + 1};\n    }\n    return total;\n}\n\n`,
  ],
  vulnerable: [
    (x) => `void ${x.fn}_run(const char *file) {\n    char command[256];\n    sprintf(command, "convert %s out.png", file);\n    system(command);\n}\n\n`,
    (x) => `void ${x.fn}_copy(char *dest, const char *src) {\n    strcpy(dest, src);\n}\n\n`,
  ],
}

const cpp: LanguageTemplate = {
  extension: 'cpp',
  weight: 2,
  header: (_rng, module) => `// ${module}\n#include <string>\n#include <vector>\n#include <algorithm>\n\nnamespace app {\n\n`,
  units: [
    (x) => `class ${x.Fn} {\n public:\n  explicit ${x.Fn}(std::string name) : name_(std::move(name)) {}\n  const std::string& name() const { return name_; }\n  bool ${x.adj}() const { return !name_.empty(); }\n\n private:\n  std::string name_;\n};\n\n`,
    (x) => `std::vector<int> ${x.fn}(const std::vector<int>& values) {\n  std::vector<int> result;\n  std::copy_if(values.begin(), values.end(), std::back_inserter(result), [](int v) { return v % ${x.n + 2} == 0; });\n  return result;\n}\n\n`,
  ],
  vulnerable: [(x) => `int ${x.fn}Run(const std::string& file) {\n  std::string command = "convert " + file;\n  return system(command.c_str());\n}\n\n`],
  footer: '}  // namespace app\n',
}

const csharp: LanguageTemplate = {
  extension: 'cs',
  weight: 2,
  header: (_rng, module) => `using System;\nusing System.Collections.Generic;\nusing System.Data.SqlClient;\n\nnamespace Example.${cap(module.replace(/[^a-z]/g, ''))}\n{\n`,
  units: [
    (x) => `    public class ${x.Fn}Repository\n    {\n        private readonly string _connectionString;\n\n        public ${x.Fn}Repository(string connectionString)\n        {\n            _connectionString = connectionString;\n        }\n\n        public string Find(int id)\n        {\n            using var connection = new SqlConnection(_connectionString);\n            using var command = new SqlCommand("SELECT Name FROM ${x.Noun}s WHERE Id = @id", connection);\n            command.Parameters.AddWithValue("@id", id);\n            connection.Open();\n            return command.ExecuteScalar() as string;\n        }\n    }\n\n`,
  ],
  vulnerable: [
    (x) => `    public static class ${x.Fn}Legacy\n    {\n        public static object Search(SqlConnection connection, string name)\n        {\n            var command = new SqlCommand("SELECT * FROM ${x.Noun}s WHERE Name = '" + name + "'", connection);\n            return command.ExecuteReader();\n        }\n    }\n\n`,
  ],
  footer: '}\n',
}

const rust: LanguageTemplate = {
  extension: 'rs',
  weight: 2,
  header: (_rng, module) => `//! ${module}\nuse std::collections::HashMap;\nuse std::process::Command;\n\n`,
  units: [
    (x) => `pub struct ${x.Fn} {\n    pub id: u64,\n    pub name: String,\n    pub ${x.adj}: bool,\n}\n\nimpl ${x.Fn} {\n    pub fn new(id: u64, name: &str) -> Self {\n        Self { id, name: name.to_string(), ${x.adj}: false }\n    }\n}\n\n`,
    (x) => `pub fn ${x.verb}_${x.noun}_${x.n}(values: &[String]) -> HashMap<char, usize> {\n    let mut counts = HashMap::new();\n    for value in values {\n        if let Some(first) = value.chars().next() {\n            *counts.entry(first).or_insert(0) += 1;\n        }\n    }\n    counts\n}\n\n`,
  ],
  vulnerable: [(x) => `pub fn run_${x.noun}_${x.n}(file: &str) -> std::io::Result<std::process::Output> {\n    Command::new("sh").arg("-c").arg(format!("convert {}", file)).output()\n}\n\n`],
}

const ruby: LanguageTemplate = {
  extension: 'rb',
  weight: 2,
  header: (_rng, module) => `# frozen_string_literal: true\n# ${module}\nrequire 'json'\nrequire 'digest'\n\n`,
  units: [
    (x) => `class ${x.Fn}Service\n  def initialize(repository)\n    @repository = repository\n  end\n\n  def ${x.verb}(id)\n    record = @repository.find(id)\n    return nil unless record\n\n    record.merge('state' => '${x.adj}')\n  end\nend\n\n`,
    (x) => `def ${x.verb}_${x.noun}_${x.n}(params)\n  ${x.Noun}.where(id: params[:id]).order(created_at: :desc).limit(${x.n + 1}).to_a\nend\n\n`,
  ],
  vulnerable: [
    (x) => `def search_${x.noun}_${x.n}(params)\n  ${x.Noun}.where("name = '#{params[:name]}'")\nend\n\n`,
    (x) => `def run_${x.noun}_${x.n}(params)\n  system("convert #{params[:file]} out.png")\nend\n\n`,
  ],
}

const php: LanguageTemplate = {
  extension: 'php',
  weight: 2,
  header: (_rng, module) => `<?php\n// ${module}\nnamespace App;\n\n`,
  units: [
    (x) => `function ${x.fn}(\\PDO $pdo, int $id): ?array\n{\n    $statement = $pdo->prepare('SELECT id, name FROM ${x.noun}s WHERE id = :id');\n    $statement->execute(['id' => $id]);\n    $row = $statement->fetch(\\PDO::FETCH_ASSOC);\n    return $row === false ? null : $row;\n}\n\n`,
    (x) => `class ${x.Fn}Presenter\n{\n    public function render(array $items): string\n    {\n        $html = '';\n        foreach ($items as $item) {\n            $html .= '<li>' . htmlspecialchars($item['name'], ENT_QUOTES) . '</li>';\n        }\n        return '<ul class="${x.adj}">' . $html . '</ul>';\n    }\n}\n\n`,
  ],
  vulnerable: [
    (x) => `function ${x.fn}Search($pdo)\n{\n    return $pdo->query("SELECT * FROM ${x.noun}s WHERE name = '" . $_GET['name'] . "'");\n}\n\n`,
    (x) => `function ${x.fn}Run()\n{\n    system('convert ' . $_GET['file']);\n}\n\n`,
  ],
}

const scala: LanguageTemplate = {
  extension: 'scala',
  weight: 1,
  header: (_rng, module) => `package example.${module.replace(/[^a-z]/g, '')}\n\nimport scala.collection.mutable\n\n`,
  units: [
    (x) => `final case class ${x.Fn}(id: Long, name: String, ${x.adj}: Boolean)\n\n`,
    (x) => `object ${x.Fn}Ops {\n  def ${x.verb}(values: Seq[String]): Map[Char, Int] =\n    values.filter(_.nonEmpty).groupBy(_.head).view.mapValues(_.size).toMap\n\n  def total(values: Seq[Int]): Int = values.foldLeft(0)(_ + _ % ${x.n + 1})\n}\n\n`,
  ],
  vulnerable: [(x) => `object ${x.Fn}Shell {\n  def run(file: String): Int = {\n    import scala.sys.process._\n    ("convert " + file).!\n  }\n}\n\n`],
}

const bash: LanguageTemplate = {
  extension: 'sh',
  weight: 1,
  header: (_rng, module) => `#!/usr/bin/env bash\n# ${module}\nset -euo pipefail\n\n`,
  units: [
    (x) => `${x.verb}_${x.noun}_${x.n}() {\n  local target="$1"\n  if [[ -z "$target" ]]; then\n    echo "usage: ${x.verb}_${x.noun} <target>" >&2\n    return 1\n  fi\n  mkdir -p "/var/lib/app/${x.noun}s"\n  cp -- "$target" "/var/lib/app/${x.noun}s/"\n}\n\n`,
    (x) => `report_${x.noun}_${x.n}() {\n  find . -name '*.log' -mtime -${(x.n % 7) + 1} | while read -r file; do\n    wc -l "$file"\n  done\n}\n\n`,
  ],
  vulnerable: [(x) => `run_${x.noun}_${x.n}() {\n  eval "$1"\n  curl -k "https://example.com/${x.noun}s"\n}\n\n`],
}

export const LANGUAGE_TEMPLATES: LanguageTemplate[] = [js, ts, tsx, python, java, go, kotlin, swift, c, cpp, csharp, rust, ruby, php, scala, bash]

export interface GeneratedCorpus {
  files: number
  lines: number
  bytes: number
  byExtension: Record<string, number>
}

/**
 * Writes files into `dir` until at least `targetLines` lines exist. About 4% of units are
 * vulnerable constructs. Same seed, same tree.
 */
export function generateCorpus(dir: string, targetLines: number, seed = 20240611): GeneratedCorpus {
  const rng = createRng(seed)
  const totalWeight = LANGUAGE_TEMPLATES.reduce((sum, template) => sum + template.weight, 0)
  const corpus: GeneratedCorpus = { files: 0, lines: 0, bytes: 0, byExtension: {} }
  while (corpus.lines < targetLines) {
    let roll = rng() * totalWeight
    const template = LANGUAGE_TEMPLATES.find((candidate) => (roll -= candidate.weight) < 0) ?? js
    const module = `${pick(rng, NOUNS)}${pick(rng, VERBS)}${corpus.files}`
    const parts = [template.header(rng, module)]
    const units = 15 + Math.floor(rng() * 30)
    for (let unit = 0; unit < units; unit++) {
      const vulnerable = rng() < 0.04
      const pool = vulnerable ? template.vulnerable : template.units
      parts.push(pick(rng, pool)(names(rng)))
    }
    if (template.footer) parts.push(template.footer)
    const text = parts.join('')
    const folder = join(dir, `pkg${corpus.files % 40}`, template.extension)
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, `${module}.${template.extension}`), text)
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    corpus.files++
    corpus.lines += lines
    corpus.bytes += Buffer.byteLength(text)
    corpus.byExtension[template.extension] = (corpus.byExtension[template.extension] ?? 0) + lines
  }
  return corpus
}
