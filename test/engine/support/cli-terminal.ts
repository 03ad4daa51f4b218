/**
 * The command-line scanner run as a person runs it at a terminal, and as a script runs it with
 * pipes, with the environment under the test's control (vitest sets FORCE_COLOR in its own).
 * The terminal is a pseudo-terminal made by util-linux `script`: stdout and stderr both go to it,
 * so what the person would see comes back as one stream, with "\r\n" line ends.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { projectRoot } from './cli.ts'

export interface CliRun {
  status: number | null
  stdout: string
  stderr: string
}

/** Each run starts Node, compiles the sources and starts analysis workers: seconds, more on a loaded machine. */
export const CLI_RUN_TIMEOUT = 150_000

const COMMAND = [process.execPath, '--import', 'tsx', join(projectRoot, 'src/engine/cli/scan-command.ts')]

/** The environment of a run: this one without colour settings, plus `env`. */
function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _force, NO_COLOR: _no, ...rest } = process.env
  return { ...rest, TERM: 'xterm-256color', ...env }
}

/** `parapet scan <args>` with stdout and stderr piped. */
export function runCliPiped(args: string[], env: Record<string, string> = {}): CliRun {
  const result = spawnSync(COMMAND[0] as string, [...COMMAND.slice(1), ...args], { cwd: projectRoot, encoding: 'utf8', timeout: CLI_RUN_TIMEOUT, env: environment(env) })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** `parapet scan <args>` on a pseudo-terminal; `output` is everything the terminal received. */
export function runCliInTerminal(args: string[], env: Record<string, string> = {}): { status: number | null; output: string } {
  const command = [...COMMAND, ...args].map(shellQuote).join(' ')
  const result = spawnSync('script', ['-qfec', command, '/dev/null'], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: CLI_RUN_TIMEOUT,
    env: environment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return { status: result.status, output: result.stdout }
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`
}
