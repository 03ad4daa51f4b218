// Damage reports: photo upload and download, PDF report rendering.
import Router from '@koa/router'
import { execFile, spawn } from 'node:child_process'
import { createReadStream, promises as fs } from 'node:fs'
import path from 'node:path'
import { config } from '../config'

export const damageRoutes = new Router({ prefix: '/damage' })

const PHOTO_NAME = /^[a-f0-9]{32}\.(jpe?g|png)$/

damageRoutes.get('/photos/:name', async (ctx) => {
  const { name } = ctx.params
  if (!PHOTO_NAME.test(name)) {
    ctx.status = 404
    return
  }
  ctx.type = path.extname(name)
  ctx.body = createReadStream(path.join(config.photoDir, name)) // safe: path-traversal
})

damageRoutes.get('/photos', async (ctx) => {
  const file = String(ctx.query.file)
  ctx.body = await fs.readFile(`${config.photoDir}/${file}`) // vuln: path-traversal
})

damageRoutes.post('/:report/photos', async (ctx) => {
  const files = (ctx.request as any).files as Record<string, { filepath: string; originalFilename: string }>
  const photo = files.photo
  const target = path.join(config.photoDir, ctx.params.report, photo.originalFilename) // vuln: path-traversal [photo-upload]
  await fs.rename(photo.filepath, target) // vuln: path-traversal [photo-upload]
  ctx.status = 201
})

damageRoutes.post('/:report/pdf', async (ctx) => {
  const report = String(Number(ctx.params.report))
  const { title } = ctx.request.body as { title: string }
  const child = spawn('wkhtmltopdf', ['--title', title, `http://localhost:${config.port}/dashboard/reports/${report}`, '-']) // safe: command-injection
  ctx.type = 'application/pdf'
  ctx.body = child.stdout
})

damageRoutes.post('/:report/archive', async (ctx) => {
  const { label } = ctx.request.body as { label: string }
  const child = spawn('tar', ['czf', `/var/backups/fleet/${label}.tgz`, config.photoDir], { shell: true }) // vuln: command-injection
  ctx.body = { pid: child.pid }
})

damageRoutes.get('/exif/:name', async (ctx) => {
  await new Promise<void>((resolve, reject) => {
    execFile('exiftool', ['-json', path.join(config.photoDir, path.basename(ctx.params.name))], (err, stdout) => { // safe: command-injection
      if (err) return reject(err)
      ctx.body = stdout
      resolve()
    })
  })
})
