/**
 * Uploaded zips: spooled to a temporary file with a size limit (memory stays flat whatever the
 * size), then inspected entry by entry before anything is stored. Refused: not a zip, corrupt
 * or truncated, encrypted entries, absolute or escaping paths, symbolic links, and zip bombs
 * (too many entries, too many bytes once inflated, too high a compression ratio).
 */
import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import yauzl, { type Entry, type ZipFile } from 'yauzl'
import { languageFromPath } from '../../engine/languages.ts'
import { BadRequestError, PayloadTooLargeError } from '../../errors.ts'

export interface UploadLimits {
  uploadMaxBytes: number
  zipMaxEntries: number
  zipMaxUncompressedBytes: number
  zipMaxCompressionRatio: number
}

export interface SpooledFile {
  path: string
  sizeBytes: number
  sha256: string
  remove(): Promise<void>
}

export interface ZipSummary {
  fileCount: number
  uncompressedBytes: number
  /** language -> lines */
  languages: Record<string, number>
}

const S_IFMT = 0o170000
const S_IFLNK = 0o120000

/** Writes `source` to a temporary file, refusing (413) past `maxBytes`. */
export async function spoolToFile(source: Readable, maxBytes: number): Promise<SpooledFile> {
  const file = path.join(os.tmpdir(), `parapet-upload-${randomUUID()}.zip`)
  const hash = createHash('sha256')
  let size = 0
  const remove = () => fs.rm(file, { force: true })
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length
      if (size > maxBytes) {
        done(new PayloadTooLargeError(`Upload exceeds the limit of ${maxBytes} bytes`))
        return
      }
      hash.update(chunk)
      done(null, chunk)
    },
  })
  try {
    await pipeline(source, meter, createWriteStream(file))
  } catch (error) {
    await remove()
    source.resume()
    // the multipart parser's own size limit answers 413 too
    if ((error as { status?: number }).status === 413) throw new PayloadTooLargeError(`Upload exceeds the limit of ${maxBytes} bytes`)
    throw error
  }
  return { path: file, sizeBytes: size, sha256: hash.digest('hex'), remove }
}

/** Checks every entry (inflating it once) and measures the archive; throws a 4xx error on the first problem. */
export async function inspectZip(file: string, limits: UploadLimits): Promise<ZipSummary> {
  const zip = await openZip(file)
  const summary: ZipSummary = { fileCount: 0, uncompressedBytes: 0, languages: {} }
  let entries = 0
  try {
    for await (const entry of zipEntries(zip)) {
      entries += 1
      if (entries > limits.zipMaxEntries) throw new BadRequestError(`The zip has more than ${limits.zipMaxEntries} entries`)
      checkEntry(entry, limits)
      if (isDirectory(entry)) continue
      summary.uncompressedBytes += entry.uncompressedSize
      if (summary.uncompressedBytes > limits.zipMaxUncompressedBytes) {
        throw new BadRequestError(`The zip expands to more than ${limits.zipMaxUncompressedBytes} bytes`)
      }
      const lines = await measureEntry(zip, entry)
      summary.fileCount += 1
      const language = languageFromPath(entry.fileName)
      if (language) summary.languages[language] = (summary.languages[language] ?? 0) + lines
    }
  } finally {
    zip.close()
  }
  return summary
}

export interface ZipSource {
  path: string
  content: Buffer
}

/** The archive's files, one in memory at a time (the scan worker reads them). */
export async function* readZipFiles(file: string): AsyncGenerator<ZipSource> {
  const zip = await openZip(file)
  try {
    for await (const entry of zipEntries(zip)) {
      if (isDirectory(entry) || isSymlink(entry)) continue
      yield { path: entry.fileName, content: await readEntry(zip, entry) }
    }
  } finally {
    zip.close()
  }
}

function checkEntry(entry: Entry, limits: UploadLimits): void {
  if ((entry.generalPurposeBitFlag & 0x1) !== 0) throw new BadRequestError(`Encrypted zip entries are not supported: ${entry.fileName}`)
  if (isSymlink(entry)) throw new BadRequestError(`Symbolic links are not allowed in the zip: ${entry.fileName}`)
  if (isDirectory(entry)) return
  const ratio = entry.compressedSize === 0 ? (entry.uncompressedSize === 0 ? 0 : Number.POSITIVE_INFINITY) : entry.uncompressedSize / entry.compressedSize
  if (ratio > limits.zipMaxCompressionRatio) {
    throw new BadRequestError(`Compression ratio of ${entry.fileName} exceeds ${limits.zipMaxCompressionRatio}:1 (zip bomb?)`)
  }
}

function isDirectory(entry: Entry): boolean {
  return entry.fileName.endsWith('/')
}

function isSymlink(entry: Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK
}

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // yauzl refuses absolute and escaping ("../") names itself, and checks every entry's size
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, (error, zip) => {
      if (error || !zip) reject(zipError(error))
      else resolve(zip)
    })
  })
}

async function* zipEntries(zip: ZipFile): AsyncGenerator<Entry> {
  while (true) {
    const entry = await new Promise<Entry | null>((resolve, reject) => {
      const onEntry = (value: Entry) => finish(() => resolve(value))
      const onEnd = () => finish(() => resolve(null))
      const onError = (error: unknown) => finish(() => reject(zipError(error)))
      const finish = (then: () => void) => {
        zip.off('entry', onEntry).off('end', onEnd).off('error', onError)
        then()
      }
      zip.on('entry', onEntry).on('end', onEnd).on('error', onError)
      zip.readEntry()
    })
    if (!entry) return
    yield entry
  }
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(zipError(error, entry)) : resolve(stream)))
  })
}

async function measureEntry(zip: ZipFile, entry: Entry): Promise<number> {
  const stream = await openEntry(zip, entry)
  let lines = 0
  let sawBytes = false
  let endsWithNewline = false
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      sawBytes ||= chunk.length > 0
      for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lines += 1
      endsWithNewline = chunk.length > 0 ? chunk[chunk.length - 1] === 10 : endsWithNewline
    }
  } catch (error) {
    throw zipError(error, entry)
  }
  return sawBytes && !endsWithNewline ? lines + 1 : lines
}

async function readEntry(zip: ZipFile, entry: Entry): Promise<Buffer> {
  const stream = await openEntry(zip, entry)
  const chunks: Buffer[] = []
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk)
  } catch (error) {
    throw zipError(error, entry)
  }
  return Buffer.concat(chunks)
}

/** yauzl's and zlib's errors, as the client's problem: a 400 saying what is wrong. */
function zipError(error: unknown, entry?: Entry): Error {
  if (error instanceof BadRequestError || error instanceof PayloadTooLargeError) return error
  const reason = error instanceof Error ? error.message : String(error)
  if (/invalid relative path|absolute path|invalid characters/i.test(reason)) return new BadRequestError(`Unsafe path in the zip: ${reason}`)
  if (/end of central directory record signature not found/i.test(reason)) return new BadRequestError('The file is not a zip archive, or it is truncated')
  return new BadRequestError(`The zip is corrupt${entry ? ` at ${entry.fileName}` : ''}: ${reason}`)
}
