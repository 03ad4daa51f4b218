/**
 * NestJS (and TypeScript decorator) facts: `@Controller` classes become route scopes,
 * `@Get`/`@Post`... methods become routes, `@UseGuards`/`@Public` become guards, queue,
 * event and schedule decorators become entry points, `@Entity`-style classes become models.
 */
import type { SgNode } from '@ast-grep/napi'
import { classifyJsGuard } from '../guards.ts'
import type { EntryKind, FileFacts, GuardRef } from '../model.ts'
import { callArguments, flatText, literalString, startLine } from '../syntax.ts'

export interface DecoratorUse {
  name: string
  firstString: string | null
  args: string[]
  line: number
  target: { kind: 'class'; name: string } | { kind: 'method'; start: number } | null
}

const HTTP_DECORATORS: Record<string, string> = { Get: 'GET', Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE', Options: 'OPTIONS', Head: 'HEAD', All: 'ANY' }
const ENTRY_DECORATORS: Record<string, EntryKind> = {
  Process: 'consumer',
  EventPattern: 'consumer',
  MessagePattern: 'consumer',
  SubscribeMessage: 'websocket',
  Cron: 'scheduled',
  Interval: 'scheduled',
  Timeout: 'scheduled',
  OnEvent: 'consumer',
}
const MODEL_DECORATORS: Record<string, string> = { Entity: 'TypeORM', Schema: 'Mongoose', Table: 'Sequelize' }
const PUBLIC_DECORATORS = new Set(['Public', 'SkipAuth', 'AllowAnonymous', 'IsPublic', 'NoAuth'])

export function collectDecorator(into: DecoratorUse[], node: SgNode): void {
  const expression = node.children().find((child) => child.isNamed() && child.kind() !== 'comment')
  if (!expression) return
  const isCall = expression.kind() === 'call_expression'
  const name = (isCall ? expression.field('function')?.text() : expression.text()) ?? ''
  if (!/^[A-Z][\w$]*$/.test(name)) return
  const args = isCall ? callArguments(expression) : []
  into.push({
    name,
    firstString: literalString(args[0]) ?? (args[0] ? (/path\s*:\s*['"`]([^'"`]*)/.exec(flatText(args[0], 200))?.[1] ?? null) : null),
    args: args.map((arg) => flatText(arg, 100)),
    line: startLine(node),
    target: decoratorTarget(node),
  })
}

function decoratorTarget(node: SgNode): DecoratorUse['target'] {
  const parent = node.parent()
  const kind = parent?.kind()
  if (kind === 'class_declaration' || kind === 'abstract_class_declaration') return { kind: 'class', name: parent?.field('name')?.text() ?? '' }
  if (kind === 'export_statement') {
    const declaration = parent?.field('declaration')
    const name = declaration?.field('name')?.text()
    return name ? { kind: 'class', name } : null
  }
  if (kind !== 'class_body') return null
  for (let next = node.next(); next; next = next.next()) {
    const nextKind = next.kind()
    if (nextKind === 'method_definition') return { kind: 'method', start: next.range().start.index }
    if (nextKind !== 'decorator' && nextKind !== 'comment') return null
  }
  return null
}

function normalizePath(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '')
  return trimmed === '' ? '' : `/${trimmed}`
}

function guardsFrom(uses: readonly DecoratorUse[], originOf: (name: string) => string | undefined): GuardRef[] {
  const guards: GuardRef[] = []
  for (const use of uses) {
    if (use.name === 'UseGuards') {
      for (const arg of use.args) guards.push({ name: arg, line: use.line, ...classifyJsGuard(arg, originOf(arg)) })
    } else if (PUBLIC_DECORATORS.has(use.name)) guards.push({ name: `@${use.name}()`, line: use.line, public: true })
  }
  return guards
}

export function applyNestDecorators(facts: FileFacts, uses: readonly DecoratorUse[], originOf: (name: string) => string | undefined): void {
  if (uses.length === 0) return
  const byClass = new Map<string, DecoratorUse[]>()
  const byMethod = new Map<number, DecoratorUse[]>()
  for (const use of uses) {
    if (use.target?.kind === 'class') byClass.set(use.target.name, [...(byClass.get(use.target.name) ?? []), use])
    else if (use.target?.kind === 'method') byMethod.set(use.target.start, [...(byMethod.get(use.target.start) ?? []), use])
  }
  for (const [className, classUses] of byClass) {
    const controller = classUses.find((use) => use.name === 'Controller')
    if (controller) {
      facts.scopes.push({ name: className, framework: 'nestjs', kind: 'router', prefix: normalizePath(controller.firstString ?? ''), line: controller.line, guards: guardsFrom(classUses, originOf) })
    }
    const model = classUses.find((use) => MODEL_DECORATORS[use.name])
    if (model) facts.models.push({ name: className, orm: MODEL_DECORATORS[model.name] ?? '', line: model.line })
  }
  facts.definitions.forEach((definition, index) => {
    const methodUses = byMethod.get(definition.start)
    if (!methodUses || definition.kind !== 'method') return
    const className = definition.owner ?? ''
    for (const use of methodUses) {
      const method = HTTP_DECORATORS[use.name]
      if (method && byClass.get(className)?.some((classUse) => classUse.name === 'Controller')) {
        facts.routes.push({
          framework: 'nestjs',
          method,
          path: normalizePath(use.firstString ?? ''),
          line: use.line,
          scope: className,
          order: definition.start,
          handler: { kind: 'definition', index },
          guards: guardsFrom(methodUses, originOf),
        })
      }
      const entry = ENTRY_DECORATORS[use.name]
      if (entry) facts.entries.push({ kind: entry, name: `@${use.name}(${use.args.join(', ')})`, line: use.line, handler: index })
    }
  })
}
