/** The command-line scanner as a user runs it: `src/engine/cli/scan-command.ts` in a Node process of its own. */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const projectRoot = fileURLToPath(new URL('../../..', import.meta.url))

/** Runs `parapet scan` with `args`; `timeout` bounds a run that starts the built-in rules on a loaded machine. */
export function runCli(args: string[], timeout = 60_000): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/engine/cli/scan-command.ts'), ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout,
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
