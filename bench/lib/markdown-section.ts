/**
 * Replaces (or appends) one `## Heading` section of a Markdown file, leaving the other
 * sections, which other benchmarks own, untouched.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'

export function writeMarkdownSection(path: string, heading: string, body: string, title = '# Benchmarks'): void {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : `${title}\n`
  const marker = `## ${heading}`
  const lines = current.split('\n')
  const start = lines.findIndex((line) => line.trim() === marker)
  const section = [marker, '', body.trim(), ''].join('\n')
  let next: string
  if (start === -1) {
    next = `${current.trimEnd()}\n\n${section}`
  } else {
    let end = lines.findIndex((line, index) => index > start && /^## /.test(line))
    if (end === -1) end = lines.length
    next = [...lines.slice(0, start), section, ...lines.slice(end)].join('\n')
  }
  writeFileSync(path, `${next.trimEnd()}\n`)
}
