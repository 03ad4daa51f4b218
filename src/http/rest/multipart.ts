/**
 * multipart/form-data for REST uploads: text fields into an object, the one file field spooled
 * to a temporary file under the upload size limit (413 past it), so the resolver reads it as a
 * stream whatever the order of the parts.
 */
import type { Request } from 'express'
import busboy from 'busboy'
import { Upload, type FileUpload } from 'graphql-upload-minimal'
import { createReadStream, type ReadStream } from 'node:fs'
import { BadRequestError, PayloadTooLargeError } from '../../errors.ts'
import { spoolToFile, type SpooledFile } from '../../modules/uploads/zip-archive.ts'

export interface MultipartBody {
  fields: Record<string, string>
  /** an Upload whose promise resolves the spooled file, as GraphQL's Upload scalar expects */
  file?: Upload
  cleanup(): Promise<void>
}

/** A file upload already on disk: the upload service reads it in place instead of copying it. */
export type SpooledFileUpload = FileUpload & { spooled?: SpooledFile }

/** graphql-upload-minimal's Upload, whose resolve() its typings omit */
type ResolvableUpload = Upload & { resolve(file: FileUpload): void }

const MAX_FIELDS = 20
const MAX_FIELD_BYTES = 64 * 1024

export async function readMultipart(req: Request, fileField: string, maxBytes: number): Promise<MultipartBody> {
  const fields: Record<string, string> = {}
  const spooled: SpooledFile[] = []
  const cleanup = async () => {
    await Promise.all(spooled.map((file) => file.remove()))
  }
  if (!req.is('multipart/form-data')) return { fields, cleanup }
  let parser: busboy.Busboy
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES } })
  } catch {
    throw new BadRequestError('Malformed multipart/form-data request')
  }
  let upload: Upload | undefined
  const pending: Promise<void>[] = []
  const done = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) reject(new PayloadTooLargeError(`Field ${name} is too large`))
      else fields[name] = value
    })
    parser.on('file', (name, stream, info) => {
      if (name !== fileField) {
        stream.resume()
        return
      }
      pending.push(
        spoolToFile(stream, maxBytes).then((file) => {
          spooled.push(file)
          upload = new Upload()
          const handle: SpooledFileUpload = {
            spooled: file,
            filename: info.filename ?? 'upload.zip',
            fieldName: name,
            mimetype: info.mimeType,
            encoding: info.encoding,
            createReadStream: (): ReadStream => createReadStream(file.path),
          }
          ;(upload as ResolvableUpload).resolve(handle)
        }, (error: unknown) => {
          // stop at once: the rest of the request body is not worth reading
          reject(error)
          throw error
        }),
      )
    })
    parser.on('error', () => reject(new BadRequestError('Malformed multipart/form-data request')))
    parser.on('close', resolve)
  })
  req.pipe(parser)
  try {
    await done
    await Promise.all(pending)
  } catch (error) {
    req.unpipe(parser)
    req.resume()
    await Promise.allSettled(pending)
    await cleanup()
    throw error
  }
  return { fields, ...(upload && { file: upload }), cleanup }
}
