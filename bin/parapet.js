#!/usr/bin/env node
// The `parapet` command: runs the compiled CLI (dist/, `npm run build`) when it was built from
// the current sources, else the TypeScript sources through tsx's loader, so that an edited
// source is never shadowed by an older build. From a build, `parapet scan` runs the scan
// command's bundle (scripts/build-bundle.mjs): a scan starts sooner from a few files than from
// the compiled modules one by one. The other commands go through src/cli/main.ts.
import { isDistCurrent } from '../scripts/build-signature.mjs'

const [command, ...args] = process.argv.slice(2)
if (!isDistCurrent()) {
  const { register } = await import('tsx/esm/api')
  register()
  await import('../src/cli/main.ts')
} else if (command === 'scan') {
  const { runCli } = await import('../dist/bundle/scan-command.js')
  process.exitCode = await runCli(args, { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) })
} else {
  await import('../dist/src/cli/main.js')
}
