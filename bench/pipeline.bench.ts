/**
 * `npm run bench:pipeline`: the scan pipeline end to end, with the API and the worker as
 * separate processes over one database (embedded, or DATABASE_URL).
 *
 * 1. Upload a 200 MB zip through POST /api/upload; report the API process's peak resident
 *    memory (VmHWM). Target: under 200 MB.
 * 2. Scan a 1,000,000-line repository: time from POST /api/scans to `completed`, next to the
 *    engine's own time on the same zip in this process (scanSources over the same entries, same
 *    thread count as the worker). Target: pipeline overhead under 20%.
 * Results go to docs/benchmarks.md (## Pipeline).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, openAsBlob, readFileSync } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import yazl from 'yazl'
import { createMigratedDatabase, startScratchServer } from '../src/db/admin.ts'
import { findFreePort } from '../src/db/embedded.ts'
import { connectDatabase } from '../src/db/orm.ts'
import { scanSources } from '../src/engine/index.ts'
import { createApiKey } from '../src/modules/api-keys/api-key.service.ts'
import { readZipFiles } from '../src/modules/uploads/zip-archive.ts'
import { createRng, generateCorpus } from './lib/corpus-generator.ts'
import { writeMarkdownSection } from './lib/markdown-section.ts'

const UPLOAD_BYTES = 200 * 1024 * 1024
const SCAN_LINES = Number(process.env['BENCH_LINES'] ?? 1_000_000)
const WORKER_THREADS = Math.min(2, os.availableParallelism())
/** as `npm run api` / `npm run worker` start them (package.json) */
const NODE_FLAGS = { api: ['--max-semi-space-size=2', '--max-old-space-size=1024'], worker: ['--max-old-space-size=2048'] }

async function main(): Promise<void> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'parapet-pipeline-'))
  await fs.chmod(work, 0o755)
  const server = await startScratchServer()
  const database = await createMigratedDatabase(server.url, `parapet_pipeline_${Date.now().toString(36)}`)
  const databaseUrl = database.url
  const children: ChildProcess[] = []
  try {
    const orm = await connectDatabase({ url: databaseUrl, poolSize: 2 })
    const { key } = await createApiKey(orm.em.fork(), { orgId: 'org-pipeline', userId: 'bench', scopes: ['write:repo', 'write:scan', 'read:repo'] })
    await orm.close()
    const headers = { 'X-API-Key': key }
    const env = {
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
      UPLOAD_MAX_BYTES: '300MiB',
      ZIP_MAX_UNCOMPRESSED_BYTES: '2GiB',
      ZIP_MAX_ENTRIES: '200000',
      WORKER_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
    }
    const apiPort = await findFreePort()
    const api = await startProcess('api', { ...env, PORT: String(apiPort) }, 'Parapet listening')
    children.push(api)
    const worker = await startProcess('worker', env, 'worker started')
    children.push(worker)
    const base = `http://127.0.0.1:${apiPort}`

    console.log('building a 200 MB zip...')
    const bigZip = path.join(work, 'big.zip')
    await writeIncompressibleZip(bigZip, UPLOAD_BYTES)
    const before = peakResidentBytes(api)
    const uploadStart = performance.now()
    const uploaded = await upload(base, headers, bigZip, 'big')
    const uploadSeconds = (performance.now() - uploadStart) / 1000
    const apiPeak = peakResidentBytes(api)
    console.log(`upload: ${(uploaded.size_bytes / 1024 ** 2).toFixed(0)} MB in ${uploadSeconds.toFixed(1)} s, API peak RSS ${(apiPeak / 1024 ** 2).toFixed(0)} MB (before ${(before / 1024 ** 2).toFixed(0)} MB)`)

    console.log(`generating ${SCAN_LINES} lines...`)
    const corpusDir = path.join(work, 'corpus')
    const corpus = generateCorpus(corpusDir, SCAN_LINES)
    const corpusZip = path.join(work, 'corpus.zip')
    await zipFolder(corpusDir, corpusZip)
    const repository = await upload(base, headers, corpusZip, 'million')

    const scanStart = performance.now()
    const created = (await (await fetch(`${base}/api/scans/${repository.id}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"scan_type":"quick"}' })).json()) as { id: string }
    let status: { status: string; issues_found: number; files_total: number }
    do {
      await new Promise((resolve) => setTimeout(resolve, 250))
      status = (await (await fetch(`${base}/api/scans/${created.id}/status`, { headers })).json()) as typeof status
    } while (!['completed', 'failed', 'stopped'].includes(status.status))
    const pipelineSeconds = (performance.now() - scanStart) / 1000
    if (status.status !== 'completed') throw new Error(`scan ended ${status.status}`)
    for (const child of children.splice(0)) child.kill('SIGTERM')

    const engineStart = performance.now()
    const report = await scanSources(readZipFiles(corpusZip), { analyzers: ['sast', 'secrets'], workers: WORKER_THREADS })
    const engineSeconds = (performance.now() - engineStart) / 1000
    const overhead = pipelineSeconds / engineSeconds - 1
    console.log(`scan: pipeline ${pipelineSeconds.toFixed(1)} s, engine ${engineSeconds.toFixed(1)} s, overhead ${(overhead * 100).toFixed(1)}%, ${status.issues_found} issues (engine: ${report.findings.length})`)

    const body = [
      `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:pipeline\` on ${os.cpus().length} cores, API and worker as separate processes (NODE_ENV=production) over one PostgreSQL.`,
      '',
      '| measurement | value | target |',
      '|---|---|---|',
      `| upload of a ${(uploaded.size_bytes / 1024 ** 2).toFixed(0)} MB zip (${uploaded.file_count} files) | ${uploadSeconds.toFixed(1)} s | |`,
      `| API process peak resident memory during it | ${(apiPeak / 1024 ** 2).toFixed(0)} MB | under 200 MB |`,
      `| scan of ${corpus.lines.toLocaleString('en')} lines (${corpus.files} files), create to completed | ${pipelineSeconds.toFixed(1)} s | |`,
      `| the engine alone on the same zip (${WORKER_THREADS} threads, same analyzers) | ${engineSeconds.toFixed(1)} s | |`,
      `| pipeline overhead | ${(overhead * 100).toFixed(1)}% | under 20% |`,
      `| issues stored / engine findings | ${status.issues_found} / ${report.findings.length} | equal |`,
      '',
      'The overhead is queue pickup (poll interval 1 s, or immediate through LISTEN), streaming the stored zip out of PostgreSQL, batched log and progress writes, and storing the issues.',
    ].join('\n')
    writeMarkdownSection(path.join(import.meta.dirname, '..', 'docs', 'benchmarks.md'), 'Pipeline', body)
    console.log('\n' + body)
  } finally {
    for (const child of children) child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1000))
    await database.drop()
    await server.stop()
    await fs.rm(work, { recursive: true, force: true })
  }
}


function startProcess(role: 'api' | 'worker', env: Record<string, string>, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...NODE_FLAGS[role], '--import', 'tsx', 'src/main.ts', '--role', role], { env: { ...process.env, ...env }, cwd: path.join(import.meta.dirname, '..') })
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(ready)) resolve(child)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.on('exit', (code) => reject(new Error(`${role} exited with ${code}: ${output}`)))
  })
}

/** VmHWM of a process: its peak resident set size so far. */
function peakResidentBytes(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  const match = /VmHWM:\s+(\d+) kB/.exec(status)
  return Number(match?.[1] ?? 0) * 1024
}

async function upload(base: string, headers: Record<string, string>, zip: string, name: string): Promise<{ id: string; size_bytes: number; file_count: number }> {
  const form = new FormData()
  form.set('repo_name', name)
  form.set('branch_name', 'main')
  form.set('file', await openAsBlob(zip), `${name}.zip`)
  const response = await fetch(`${base}/api/upload`, { method: 'POST', headers, body: form })
  if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as { id: string; size_bytes: number; file_count: number }
}

/** A zip of about `bytes` bytes of stored (uncompressed), pseudo-random text files. */
async function writeIncompressibleZip(file: string, bytes: number): Promise<void> {
  const zip = new yazl.ZipFile()
  const random = createRng(7)
  const fileBytes = 256 * 1024
  for (let index = 0; index * fileBytes < bytes; index++) {
    const content = Buffer.alloc(fileBytes)
    for (let offset = 0; offset < fileBytes; offset++) content[offset] = 97 + Math.floor(random() * 26)
    zip.addBuffer(content, `data/blob_${index}.txt`, { compress: false })
  }
  zip.end()
  await pipeline(zip.outputStream, createWriteStream(file))
}

async function zipFolder(folder: string, file: string): Promise<void> {
  const zip = new yazl.ZipFile()
  for (const entry of await fs.readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const absolute = path.join(entry.parentPath, entry.name)
    zip.addFile(absolute, path.relative(folder, absolute))
  }
  zip.end()
  await pipeline(zip.outputStream, createWriteStream(file))
}


await main()
