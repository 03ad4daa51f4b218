/**
 * Uploaded zips: spooled to a temporary file with a size limit (memory stays flat whatever the
 * size), then inspected before anything is stored. Refused: not a zip, corrupt or truncated,
 * encrypted entries, unsafe names (absolute, escaping with `..`, control characters such as
 * NUL, empty), symbolic links, and zip bombs: too many entries, too high a compression ratio,
 * entries whose bytes overlap (many entries inflating one stream), and too many bytes once
 * inflated, counted as they come out of the inflater (declared sizes can lie).
 *
 * Inspection is two passes over the central directory: the first reads names, flags and where
 * each entry's local header and data lie (no inflating), the second inflates each file once.
 *
 * Root folder: a zip downloaded from a Git host holds every file under one folder named after
 * the commit (`shop-3f2a1c/...`), a new name for each download. When every file sits under one
 * top-level folder, inspection names it (`rootPrefix`), the bytes are stored as uploaded, and
 * readers given the prefix see paths without it, so paths (and the findings' fingerprints) stay
 * the same from one download to the next. Directory entries and macOS metadata (`__MACOSX/...`,
 * added by the Finder's Compress) do not count; the metadata sits outside the root folder and is
 * not read when a prefix is stripped. Files at the root, or two top-level folders: no prefix.
 */
import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import yauzl, { type Entry, type ZipFile } from 'yauzl'
import { languageFromPath } from '../../engine/core/languages.ts'
import { BadRequestError, PayloadTooLargeError } from '../../errors.ts'

export interface UploadLimits {
  uploadMaxBytes: number
  zipMaxEntries: number
  zipMaxUncompressedBytes: number
  zipMaxCompressionRatio: number
  /** entries that inflate to at most this many bytes are not held to the ratio */
  zipRatioMinBytes: number
}

export interface SpooledFile {
  path: string
  sizeBytes: number
  sha256: string
  remove(): Promise<void>
}

export interface ZipSummary {
  /** the one top-level folder every file sits under, with its slash (`shop-3f2a1c/`); null when none */
  rootPrefix: string | null
  /** the files readers see (macOS metadata outside the root folder left out) */
  fileCount: number
  uncompressedBytes: number
  /** language -> lines */
  languages: Record<string, number>
}

const S_IFMT = 0o170000
const S_IFLNK = 0o120000

/** macOS resource forks and attributes, beside the project's folder: not the project's files */
const MACOS_METADATA = '__MACOSX/'

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
  const rootPrefix = await checkLayout(file, limits)
  const zip = await openZip(file)
  const summary: ZipSummary = { rootPrefix, fileCount: 0, uncompressedBytes: 0, languages: {} }
  try {
    for await (const entry of zipEntries(zip)) {
      if (isDirectory(entry)) continue
      // every entry counts towards the limits, read or not
      const measured = await measureEntry(zip, entry, limits.zipMaxUncompressedBytes - summary.uncompressedBytes)
      if (measured === 'over budget') throw new BadRequestError(`The zip expands to more than ${limits.zipMaxUncompressedBytes} bytes`)
      summary.uncompressedBytes += measured.bytes
      const seenAs = pathUnderRoot(entry.fileName, rootPrefix)
      if (seenAs === null) continue
      summary.fileCount += 1
      const language = languageFromPath(seenAs)
      if (language) summary.languages[language] = (summary.languages[language] ?? 0) + measured.lines
    }
  } finally {
    zip.close()
  }
  return summary
}

/**
 * The first pass: every entry's name and flags, its declared sizes, and the bytes it occupies
 * (local header and compressed data). No two entries may share bytes: with disjoint entries
 * and a bounded ratio per entry larger than the ratio threshold, the whole archive cannot
 * inflate to more than the ratio times its own size plus the threshold per entry, and never
 * past the total limit. Answers the root prefix (see the top of this file).
 */
async function checkLayout(file: string, limits: UploadLimits): Promise<string | null> {
  const zip = await openZip(file)
  const root = new RootFolder()
  try {
    if (zip.entryCount > limits.zipMaxEntries) throw new BadRequestError(`The zip has more than ${limits.zipMaxEntries} entries`)
    const starts = new Float64Array(zip.entryCount)
    const ends = new Float64Array(zip.entryCount)
    let count = 0
    for await (const entry of zipEntries(zip)) {
      checkEntry(entry, limits)
      root.see(entry)
      const { fileDataStart } = await localHeaderOf(zip, entry)
      starts[count] = entry.relativeOffsetOfLocalHeader
      ends[count] = fileDataStart + entry.compressedSize
      count += 1
    }
    const order = Array.from({ length: count }, (_, index) => index).sort((a, b) => (starts[a] as number) - (starts[b] as number))
    let reached = 0
    for (const index of order) {
      if ((starts[index] as number) < reached) throw new BadRequestError('Entries of the zip overlap (zip bomb?)')
      reached = Math.max(reached, ends[index] as number)
    }
    return root.prefix()
  } finally {
    zip.close()
  }
}
export interface ZipSource {
  path: string
  content: Buffer
}

/**
 * The archive's files, one in memory at a time (the scan worker reads them), with the root prefix
 * inspection found (stored with the content) stripped from their paths. Contents stored without
 * one (every content uploaded before prefixes were recorded) are read with their paths as they are.
 */
export async function* readZipFiles(file: string, rootPrefix: string | null = null): AsyncGenerator<ZipSource> {
  const zip = await openZip(file)
  try {
    for await (const entry of zipEntries(zip)) {
      if (isDirectory(entry) || isSymlink(entry)) continue
      const seenAs = pathUnderRoot(entry.fileName, rootPrefix)
      if (seenAs !== null) yield { path: seenAs, content: await readEntry(zip, entry) }
    }
  } finally {
    zip.close()
  }
}

/** An entry's path as readers see it: without the root prefix; null outside it (macOS metadata), not read. */
function pathUnderRoot(name: string, rootPrefix: string | null): string | null {
  if (rootPrefix === null) return name
  return name.startsWith(rootPrefix) ? name.slice(rootPrefix.length) : null
}

/** Finds the one top-level folder of the files, if there is one, from their names seen one at a time. */
class RootFolder {
  private folder: string | null | undefined

  see(entry: Entry): void {
    if (isDirectory(entry) || entry.fileName.startsWith(MACOS_METADATA) || this.folder === null) return
    const slash = entry.fileName.indexOf('/')
    // a file at the root; `x//y` counts as one too, as stripping would make it an absolute `/y`
    const top = slash > 0 && entry.fileName[slash + 1] !== '/' ? entry.fileName.slice(0, slash + 1) : null
    this.folder = this.folder === undefined || this.folder === top ? top : null
  }

  /** null when a file sits at the root, files sit in two folders, or there are no files */
  prefix(): string | null {
    return this.folder ?? null
  }
}

function checkEntry(entry: Entry, limits: UploadLimits): void {
  checkName(entry.fileName)
  if ((entry.generalPurposeBitFlag & 0x1) !== 0) throw new BadRequestError(`Encrypted zip entries are not supported: ${shown(entry.fileName)}`)
  if (isSymlink(entry)) throw new BadRequestError(`Symbolic links are not allowed in the zip: ${shown(entry.fileName)}`)
  if (isDirectory(entry)) return
  // Real repositories hold small files that compress extremely well (blank fixtures, padded
  // test files); they cost little once inflated, and the total is capped anyway. The ratio
  // guards against the entries that would inflate to a lot from a small upload.
  if (entry.uncompressedSize <= limits.zipRatioMinBytes) return
  const ratio = entry.compressedSize === 0 ? (entry.uncompressedSize === 0 ? 0 : Number.POSITIVE_INFINITY) : entry.uncompressedSize / entry.compressedSize
  if (ratio > limits.zipMaxCompressionRatio) {
    throw new BadRequestError(`Compression ratio of ${shown(entry.fileName)} exceeds ${limits.zipMaxCompressionRatio}:1 (zip bomb?)`)
  }
}

// C0 controls (NUL among them: PostgreSQL text cannot hold it), DEL and C1 controls
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/

/** A name is stored as text and becomes a path in findings: refused when it cannot be either. yauzl already refuses absolute and `..` names. */
function checkName(name: string): void {
  if (name === '') throw new BadRequestError('Unsafe path in the zip: an entry has an empty name')
  if (CONTROL_CHARACTER.test(name)) throw new BadRequestError(`Unsafe path in the zip: control character in ${shown(name)}`)
}

/** An entry name in a message: quoted, control characters escaped. */
function shown(name: string): string {
  return JSON.stringify(name)
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

function localHeaderOf(zip: ZipFile, entry: Entry): Promise<{ fileDataStart: number }> {
  return new Promise((resolve, reject) => {
    zip.readLocalFileHeader(entry, { minimal: true }, (error, header) => (error || !header ? reject(zipError(error, entry)) : resolve(header)))
  })
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(zipError(error, entry)) : resolve(stream)))
  })
}

/** Inflates an entry, counting lines and real bytes; stops as soon as the bytes pass `budget`. */
async function measureEntry(zip: ZipFile, entry: Entry, budget: number): Promise<{ bytes: number; lines: number } | 'over budget'> {
  const stream = await openEntry(zip, entry)
  let bytes = 0
  let lines = 0
  let endsWithNewline = false
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length
      if (bytes > budget) {
        stream.destroy()
        return 'over budget'
      }
      for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lines += 1
      endsWithNewline = chunk.length > 0 ? chunk[chunk.length - 1] === 10 : endsWithNewline
    }
  } catch (error) {
    throw zipError(error, entry)
  }
  return { bytes, lines: bytes > 0 && !endsWithNewline ? lines + 1 : lines }
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
  return new BadRequestError(`The zip is corrupt${entry ? ` at ${shown(entry.fileName)}` : ''}: ${reason}`)
}
