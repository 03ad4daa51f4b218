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
