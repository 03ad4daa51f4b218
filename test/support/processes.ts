/** The service as separate processes (`--role api|worker`) over this test file's database. */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll } from 'vitest'
import { findFreePort } from '../../src/db/embedded.ts'

export interface ServiceProcess {
  child: ChildProcess
  url: string
  output(): string
  exited: Promise<number | null>
}

const started: ChildProcess[] = []
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

export async function startServiceProcess(role: 'api' | 'worker' | 'all', databaseUrl: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const port = await findFreePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', role], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
  })
  started.push(child)
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const ready = role === 'worker' ? 'worker started' : 'Parapet listening'
  const deadline = Date.now() + 60_000
  while (!output.includes(ready)) {
    if (child.exitCode !== null) throw new Error(`${role} process exited: ${output}`)
    if (Date.now() > deadline) throw new Error(`${role} process did not start: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited }
}

/** Pids of the analysis worker processes (src/engine/scan/analysis-worker.ts) started by `parentPid`. */
export function analysisWorkerPids(parentPid: number): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent === parentPid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('analysis-worker')) pids.push(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return pids
}

/** CPU time (user + system) a process has used, in seconds; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** Whether a process still exists (a zombie waiting for its parent counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Polls `probe` every 100 ms until it returns a value `done` accepts; fails after `timeoutMs`. */
export async function waitFor<T>(probe: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
