// Fleet manager dashboard: small server-rendered pages.
import Router from '@koa/router'
import Handlebars from 'handlebars'
import sanitizeHtml from 'sanitize-html'
import { vehicles } from '../services/vehicles'

export const dashboardRoutes = new Router({ prefix: '/dashboard' })

const SUMMARY = Handlebars.compile('<h1>{{title}}</h1><ul>{{#each rows}}<li>{{plate}}</li>{{/each}}</ul>') // safe: template-injection

dashboardRoutes.get('/', async (ctx) => {
  ctx.type = 'html'
  ctx.body = SUMMARY({ title: ctx.query.title ?? 'Fleet', rows: await vehicles.list({}) }) // safe: xss
})

dashboardRoutes.get('/custom', async (ctx) => {
  const template = Handlebars.compile(String(ctx.query.layout ?? '{{title}}')) // vuln: template-injection
  ctx.type = 'html'
  ctx.body = template({ title: 'Fleet' })
})

dashboardRoutes.get('/greeting', async (ctx) => {
  ctx.type = 'html'
  ctx.body = `<p>Welcome back, ${ctx.query.name}</p>` // vuln: xss
})

dashboardRoutes.get('/notice', async (ctx) => {
  ctx.type = 'html'
  ctx.body = `<div class="notice">${sanitizeHtml(String(ctx.query.text ?? ''), { allowedTags: ['b', 'i'] })}</div>` // safe: xss
})

dashboardRoutes.get('/reports/:id', async (ctx) => {
  ctx.type = 'html'
  ctx.body = `<h1>Damage report ${Number(ctx.params.id)}</h1>` // safe: xss
})

dashboardRoutes.get('/go', async (ctx) => {
  ctx.redirect(String(ctx.query.to ?? '/dashboard')) // vuln: open-redirect
})

dashboardRoutes.get('/back', async (ctx) => {
  ctx.redirect('/dashboard?saved=1') // safe: open-redirect
})
