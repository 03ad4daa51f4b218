// Keeps package-lock.json valid for `npm ci` when the registry in use does not serve the
// other platforms' builds of @ast-grep/napi: npm then drops their lock entries, and `npm ci`
// refuses the lockfile. This re-adds them as optional, platform-bound entries (never fetched
// on a platform they do not match). Run after `npm install` changes the lockfile.
import fs from 'node:fs'

const lockPath = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'))
const napi = lock.packages['node_modules/@ast-grep/napi']
const platforms = {
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'linux-arm64-gnu': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'linux-x64-gnu': { os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
  'linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'win32-arm64-msvc': { os: ['win32'], cpu: ['arm64'] },
  'win32-ia32-msvc': { os: ['win32'], cpu: ['ia32'] },
  'win32-x64-msvc': { os: ['win32'], cpu: ['x64'] },
}
let added = 0
for (const [platform, constraints] of Object.entries(platforms)) {
  const key = `node_modules/@ast-grep/napi-${platform}`
  if (lock.packages[key] || !napi) continue
  lock.packages[key] = { version: napi.version, license: 'MIT', optional: true, ...constraints, engines: { node: '>= 10' } }
  added++
}
const [root, ...rest] = Object.keys(lock.packages)
lock.packages = Object.fromEntries([root, ...rest.sort()].map((key) => [key, lock.packages[key]]))
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n')
console.log(`package-lock.json: ${added} optional platform entries added`)
