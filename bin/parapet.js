#!/usr/bin/env node
// The `parapet` command: runs the compiled CLI (dist/, `npm run build`) when it was built from
// the current sources, else the TypeScript sources through tsx's loader, so that an edited
// source is never shadowed by an older build.
import { isDistCurrent } from '../scripts/build-signature.mjs'

if (isDistCurrent()) {
  await import('../dist/src/cli/main.js')
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import('../src/cli/main.ts')
}
