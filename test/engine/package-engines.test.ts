/**
 * Every installed package supports the Node.js versions the project's `engines` names, so
 * `npm install` runs without engine warnings on the oldest of them.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import semver from 'semver'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (file: string) => JSON.parse(readFileSync(`${root}/${file}`, 'utf8'))

it('locks only packages that run on the oldest Node.js the project supports', () => {
  const oldest = semver.minVersion(read('package.json').engines.node)?.version as string
  const lock = read('package-lock.json') as { packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }> }
  const unsupported = Object.entries(lock.packages)
    .filter(([, entry]) => entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
    .filter(([, entry]) => !semver.satisfies(oldest, (entry.engines as { node: string }).node))
    .map(([name, entry]) => `${name.replace(/^.*node_modules\//, '')} needs node ${(entry.engines as { node: string }).node}`)
  expect(unsupported).toEqual([])
})
