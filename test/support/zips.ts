/** Zip archives for tests, built in memory: honest ones, and the hostile kinds uploads must refuse. */
import yazl from 'yazl'

export type ZipFiles = Record<string, string | Buffer>

export async function makeZip(files: ZipFiles, options: { symlinks?: Record<string, string> } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile()
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name)
  for (const [name, target] of Object.entries(options.symlinks ?? {})) zip.addBuffer(Buffer.from(target), name, { mode: 0o120777 })
  zip.end()
  const chunks: Buffer[] = []
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk)
  return Buffer.concat(chunks)
}

/** Rewrites an entry name in place (same length), in the local and the central headers. */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('names must have the same length')
  const copy = Buffer.from(zip)
  let index = copy.indexOf(from)
  while (index !== -1) {
    copy.write(to, index, 'latin1')
    index = copy.indexOf(from, index + 1)
  }
  return copy
}

/** Sets the "encrypted" flag of every entry, in the local and the central headers. */
export function markEncrypted(zip: Buffer): Buffer {
  const copy = Buffer.from(zip)
  for (let offset = 0; offset < copy.length - 4; offset++) {
    const signature = copy.readUInt32LE(offset)
    if (signature === 0x04034b50) copy.writeUInt16LE(copy.readUInt16LE(offset + 6) | 1, offset + 6)
    if (signature === 0x02014b50) copy.writeUInt16LE(copy.readUInt16LE(offset + 8) | 1, offset + 8)
  }
  return copy
}

export function sampleProject(): ZipFiles {
  return {
    'app.py': 'import os\n\ndef run(cmd):\n    os.system(cmd)\n',
    'web/index.js': 'const x = 1\nconsole.log(x)\n',
    'README.md': '# Sample\n',
  }
}

/** One record of a zip's central directory, as `rewriteCentralDirectory` lets a test edit it. */
export interface CentralRecord {
  name: string
  localHeaderOffset: number
  compressedSize: number
  /** the record's fixed 46 bytes (the other fields) */
  header: Buffer
}

/**
 * Rebuilds the central directory (and its end record) from edited records, leaving the local
 * headers and data as they are: how hostile archives lie about names, sizes and offsets.
 */
export function rewriteCentralDirectory(zip: Buffer, edit: (records: CentralRecord[]) => CentralRecord[]): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  const count = zip.readUInt16LE(end + 10)
  const directoryOffset = zip.readUInt32LE(end + 16)
  const records: CentralRecord[] = []
  for (let at = directoryOffset, index = 0; index < count; index++) {
    const header = Buffer.from(zip.subarray(at, at + 46))
    const nameLength = header.readUInt16LE(28)
    records.push({ header, name: zip.toString('latin1', at + 46, at + 46 + nameLength), localHeaderOffset: header.readUInt32LE(42), compressedSize: header.readUInt32LE(20) })
    at += 46 + nameLength + header.readUInt16LE(30) + header.readUInt16LE(32)
  }
  const edited = edit(records)
  const directory = Buffer.concat(
    edited.map((record) => {
      const header = Buffer.from(record.header)
      const name = Buffer.from(record.name, 'latin1')
      header.writeUInt16LE(name.length, 28)
      header.writeUInt16LE(0, 30) // no extra field
      header.writeUInt16LE(0, 32) // no comment
      header.writeUInt32LE(record.compressedSize, 20)
      header.writeUInt32LE(record.localHeaderOffset, 42)
      return Buffer.concat([header, name])
    }),
  )
  const endRecord = Buffer.alloc(22)
  endRecord.writeUInt32LE(0x06054b50, 0)
  endRecord.writeUInt16LE(edited.length, 8)
  endRecord.writeUInt16LE(edited.length, 10)
  endRecord.writeUInt32LE(directory.length, 12)
  endRecord.writeUInt32LE(directoryOffset, 16)
  return Buffer.concat([zip.subarray(0, directoryOffset), directory, endRecord])
}

/** `copies` entries of different names whose records all point at the one entry of `zip`. */
export function shareOneEntry(zip: Buffer, copies: number): Buffer {
  return rewriteCentralDirectory(zip, ([record]) => Array.from({ length: copies }, (_, index) => ({ ...record!, name: `copy-${index}.txt` })))
}

/** Renames the entries of `zip` (any length, in the central directory, where readers take names from). */
export function renameEntries(zip: Buffer, rename: (name: string) => string): Buffer {
  return rewriteCentralDirectory(zip, (records) => records.map((record) => ({ ...record, name: rename(record.name) })))
}
