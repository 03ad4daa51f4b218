/**
 * Shared helpers for engine tests: temporary folders and small rule documents written in
 * the same YAML format as the built-in rules.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach } from 'vitest'

const created: string[] = []

/** A temporary folder holding `files` (path -> content), removed after the test. */
export function tempTree(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'parapet-test-'))
  created.push(root)
  for (const [path, content] of Object.entries(files)) {
    const absolute = join(root, path)
    mkdirSync(dirname(absolute), { recursive: true })
    writeFileSync(absolute, content)
  }
  return root
}

afterEach(() => {
  for (const root of created.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** YAML of one rule document; `overrides` are raw YAML lines replacing defaults by key. */
export function ruleYaml(fields: Record<string, string>): string {
  const defaults: Record<string, string> = {
    id: 'test.command-injection.os-system',
    language: 'python',
    rule: '\n  pattern: os.system($CMD)',
    severity: 'high',
    message: 'os.system() runs $CMD',
    title: 'OS command from a variable',
    category: 'command-injection',
    cwe: '[CWE-78]',
    owasp: '"A03:2021 - Injection"',
    cvss: '8.8',
    confidence: '0.8',
    remediation: 'Pass arguments as a list.',
  }
  const merged = { ...defaults, ...fields }
  return Object.entries(merged)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n')
}

export function source(path: string, text: string): { path: string; content: Buffer } {
  return { path, content: Buffer.from(text, 'utf8') }
}
