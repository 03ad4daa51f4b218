/** The service as separate processes (`--role api|worker`) over this test file's database. */
import { spawn, type ChildProcess } from 'node:child_process'
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
