/**
 * Java facts from one syntax tree: package, imports, classes, methods, fields and constructor
 * parameters with their types (for following `userService.find()` into UserService), method
 * calls, Spring MVC controllers and mappings, JAX-RS resources, `@WebServlet` servlets,
 * method-security annotations, Spring Security path rules, listeners, schedulers, `main`
 * methods and JPA entities.
 */
import type { NapiConfig, SgNode } from '@ast-grep/napi'
import { classifyJavaAnnotation } from '../guards.ts'
import type { EntryKind, FileFacts, GuardRef } from '../model.ts'
import { calleeMethod, calleesFromSpans, fastRule, flatText, startLine } from '../syntax.ts'
import { addDefinition, assignAuthHints, assignCallOwners, assignMethodOwners, ExtractedFile } from './common.ts'

const NOISE_METHOD = new RegExp(
  '^(?:equals|hashCode|toString|size|isEmpty|length|get|add|addAll|put|putAll|remove|append|contains|containsKey|stream|map|filter|collect|forEach|orElse|orElseThrow|orElseGet|isPresent|ifPresent|of|valueOf|format|trim|toLowerCase|toUpperCase|substring|startsWith|endsWith|split|replace|getMessage|printStackTrace|info|debug|warn|error|trace|builder|build|getClass|getName|intValue|longValue|booleanValue|compareTo|iterator|hasNext|next|keySet|values|entrySet|getKey|getValue|println|print|printf|asList|emptyList|singletonList|requireNonNull|sorted|toList|charAt|indexOf|isBlank|join|min|max|abs|ok|body|status|header|headers|setStatus)$',
)

const RULE: NapiConfig = fastRule({
  rule: {
    any: [
      { kind: 'package_declaration' },
      { kind: 'import_declaration' },
      { kind: 'class_declaration' },
      { kind: 'interface_declaration' },
      { kind: 'record_declaration' },
      { kind: 'enum_declaration' },
      { kind: 'method_declaration' },
      { kind: 'constructor_declaration' },
      { kind: 'field_declaration' },
      { kind: 'annotation' },
      { kind: 'marker_annotation' },
      { kind: 'object_creation_expression' },
      { kind: 'method_invocation' },
    ],
  },
})

interface AnnotationUse {
  name: string
  args: string
  line: number
  /** Start offset of the annotated class or method. */
  target: number
  targetKind: string
}

const MAPPINGS: Record<string, string> = { GetMapping: 'GET', PostMapping: 'POST', PutMapping: 'PUT', DeleteMapping: 'DELETE', PatchMapping: 'PATCH', RequestMapping: 'ANY' }
const JAXRS_VERBS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'])
const SERVLET_METHODS: Record<string, string> = { doGet: 'GET', doPost: 'POST', doPut: 'PUT', doDelete: 'DELETE', doPatch: 'PATCH', doHead: 'HEAD', doOptions: 'OPTIONS', service: 'ANY' }
const LISTENERS: Record<string, EntryKind> = { KafkaListener: 'consumer', RabbitListener: 'consumer', JmsListener: 'consumer', SqsListener: 'consumer', StreamListener: 'consumer', EventListener: 'consumer', Scheduled: 'scheduled', MessageMapping: 'websocket' }
const ACCESS_MATCHERS = new Set(['requestMatchers', 'antMatchers', 'mvcMatchers', 'regexMatchers', 'pathMatchers', 'anyRequest', 'anyExchange'])
const AUTH_DSL = new Set(['httpBasic', 'formLogin', 'oauth2Login', 'oauth2ResourceServer', 'saml2Login', 'x509', 'jwt', 'rememberMe'])

class JavaFile extends ExtractedFile {
  readonly annotations: AnnotationUse[] = []
}

const IMPORT_RULE: NapiConfig = { rule: { any: [{ kind: 'package_declaration' }, { kind: 'import_declaration' }] } }

/** Package and imports only, for files read beyond the analysis budget. */
export function extractJavaImports(facts: FileFacts, root: SgNode, text: string): void {
  const file = new JavaFile(facts, text)
  for (const node of root.findAll(IMPORT_RULE)) readNode(file, node)
}

export function extractJava(facts: FileFacts, root: SgNode, text: string): void {
  const file = new JavaFile(facts, text)
  for (const node of root.findAll(RULE)) readNode(file, node)
  resolveInvocations(file)
  assignMethodOwners(facts)
  applyAnnotations(file)
  facts.accessRules.sort((a, b) => a.order - b.order)
  assignCallOwners(facts)
  assignAuthHints(facts, text)
}

function readNode(file: JavaFile, node: SgNode): void {
  const facts = file.facts
  switch (node.kind()) {
    case 'package_declaration':
      facts.packageName = node.text().replace(/^package\s+|;$/g, '').trim()
      return
    case 'import_declaration':
      return readImport(facts, node)
    case 'class_declaration':
    case 'interface_declaration':
    case 'record_declaration':
    case 'enum_declaration':
      return readType(facts, node)
    case 'method_declaration':
      return readMethod(facts, node)
    case 'constructor_declaration':
      addDefinition(facts, node, { name: '<init>', kind: 'method' })
      return readTypedNames(facts, node.field('parameters')?.text() ?? '')
    case 'field_declaration':
      return readTypedNames(facts, node.text())
    case 'annotation':
    case 'marker_annotation':
      return readAnnotation(file, node)
    case 'object_creation_expression':
      return readCreation(facts, node)
    case 'method_invocation': {
      const range = node.range()
      return void file.rawCalls.push({ node, start: range.start.index, end: range.end.index, line: range.start.line + 1 })
    }
  }
}

/** `import com.acme.UserService;`, `import com.acme.*;`, `import static org.x.Y.z;` */
function readImport(facts: FileFacts, node: SgNode): void {
  const match = /^import\s+(static\s+)?([\w.]+)(\.\*)?\s*;/.exec(node.text())
  if (!match?.[2]) return
  const name = match[2]
  const simple = name.slice(name.lastIndexOf('.') + 1)
  if (match[3]) facts.imports.push({ specifier: `${name}.*`, line: startLine(node), bindings: [] })
  else if (match[1]) facts.imports.push({ specifier: name.slice(0, name.lastIndexOf('.')), line: startLine(node), bindings: [{ local: simple, imported: simple }] })
  else facts.imports.push({ specifier: name, line: startLine(node), bindings: [{ local: simple, imported: simple }] })
}

function readType(facts: FileFacts, node: SgNode): void {
  const name = node.field('name')?.text() ?? 'Anonymous'
  const bases: string[] = []
  for (const child of node.children()) {
    const kind = child.kind()
    if (kind === 'superclass' || kind === 'super_interfaces' || kind === 'extends_interfaces') {
      for (const match of child.text().matchAll(/\b([A-Z][\w]*)/g)) if (match[1]) bases.push(match[1])
    }
  }
  addDefinition(facts, node, { name, kind: 'class', bases })
  facts.typeNames.push(name)
}

function readMethod(facts: FileFacts, node: SgNode): void {
  const name = node.field('name')?.text() ?? 'anonymous'
  addDefinition(facts, node, { name, kind: 'method' })
  const parameters = node.field('parameters')?.text() ?? ''
  readTypedNames(facts, parameters)
  if (name === 'main' && /^\(\s*(?:final\s+)?String\s*(?:\[\]|\.\.\.)\s*\w+\s*\)$/.test(parameters.replace(/\s+/g, ' ')) && /\bstatic\b/.test(flatText(node, 200))) {
    facts.entries.push({ kind: 'main', name: 'main(String[])', line: startLine(node), handler: facts.definitions.length - 1 })
  }
}

/** `private final UserService userService;`, `(UserRepository repository, ...)`: names with their types. */
function readTypedNames(facts: FileFacts, text: string): void {
  const cleaned = text.replace(/@\w+(?:\([^)]*\))?/g, ' ').replace(/<[^<>]*(?:<[^<>]*>[^<>]*)*>/g, '')
  for (const match of cleaned.matchAll(/\b([A-Z]\w*)\s+(\w+)\s*(?=[,;=)])/g)) {
    if (match[1] && match[2]) facts.fieldTypes[match[2]] = match[1]
  }
}

function readAnnotation(file: JavaFile, node: SgNode): void {
  const name = (node.field('name')?.text() ?? '').replace(/^.*\./, '')
  const modifiers = node.parent()
  const target = modifiers?.kind() === 'modifiers' ? modifiers.parent() : null
  const targetKind = String(target?.kind() ?? '')
  if (!target || !/^(?:class_declaration|method_declaration|interface_declaration|record_declaration)$/.test(targetKind)) {
    // Parameter annotations: request validation is the only thing the summary wants from them.
    if (name === 'Valid' || name === 'Validated') file.facts.signals.push({ signal: 'java-validation', line: startLine(node), detail: `@${name}` })
    return
  }
  file.annotations.push({ name, args: flatText(node.field('arguments') ?? node, 300), line: startLine(node), target: target.range().start.index, targetKind })
}

function readCreation(facts: FileFacts, node: SgNode): void {
  const type = (node.field('type')?.text() ?? '').replace(/<.*$/, '')
  if (!type) return
  const range = node.range()
  facts.calls.push({ callee: `new ${type}`, line: range.start.line + 1, start: range.start.index, owner: -1 })
}

/** Callees sliced from the source (`repository.findById`, `Runtime.getRuntime().exec`), the tree asked only for unusual ones. */
function resolveInvocations(file: JavaFile): void {
  const facts = file.facts
  const callees = calleesFromSpans(file.text, file.rawCalls)
  file.rawCalls.forEach((invocation, index) => {
    let callee = callees[index] ?? null
    if (callee === null) {
      const object = invocation.node.field('object')
      const name = invocation.node.field('name')?.text() ?? ''
      callee = object ? `${flatText(object, 120)}.${name}` : name
    }
    const name = calleeMethod(callee)
    if (NOISE_METHOD.test(name)) return
    facts.calls.push({ callee, line: invocation.line, start: invocation.start, owner: -1 })
    if (ACCESS_MATCHERS.has(name)) readAccessRule(facts, invocation.node, name)
    else if (name === 'csrf' || name === 'disable') readCsrf(facts, invocation.node, callee)
    else if (AUTH_DSL.has(name) && /\bhttp\b|HttpSecurity|ServerHttpSecurity/i.test(callee)) {
      facts.signals.push({ signal: 'spring-auth-mechanism', line: invocation.line, detail: name })
    }
  })
}

/** `.requestMatchers("/public/**").permitAll()`: the patterns and the access that follows them. */
function readAccessRule(facts: FileFacts, node: SgNode, matcher: string): void {
  const args = flatText(node.field('arguments') ?? node, 300)
  const patterns = matcher.startsWith('any') ? ['/**'] : [...args.matchAll(/"([^"]*)"/g)].map((match) => match[1] ?? '')
  const method = /HttpMethod\.(\w+)/.exec(args)?.[1]
  const parent = node.parent()
  const access = parent?.kind() === 'method_invocation' ? (parent.field('name')?.text() ?? '') : ''
  if (!access || patterns.length === 0) return
  const accessArgs = parent ? flatText(parent.field('arguments') ?? parent, 80).replace(/^\(|\)$/g, '') : ''
  facts.accessRules.push({ patterns: method ? patterns.map((pattern) => `${method} ${pattern}`) : patterns, access: accessArgs ? `${access}(${accessArgs})` : access, line: startLine(node), order: node.range().end.index })
}

/** `http.csrf().disable()`, `http.csrf(csrf -> csrf.disable())`, `csrf(AbstractHttpConfigurer::disable)`. */
function readCsrf(facts: FileFacts, node: SgNode, callee: string): void {
  const disabled = callee.endsWith('.disable') ? /\.csrf\(\)\.disable$/.test(callee) : /disable/.test(flatText(node.field('arguments') ?? node, 200))
  if (disabled) facts.signals.push({ signal: 'csrf-disabled', line: startLine(node), detail: 'Spring Security CSRF protection disabled' })
}

/** Annotations of one class, or of one method, grouped by the offset of what they annotate. */
function groupByTarget(annotations: readonly AnnotationUse[]): Map<number, AnnotationUse[]> {
  const groups = new Map<number, AnnotationUse[]>()
  for (const use of annotations) groups.set(use.target, [...(groups.get(use.target) ?? []), use])
  return groups
}

/** String literals of a mapping annotation: `("/x")`, `(value = {"/a", "/b"})`, `(path = "/x", method = ...)`. */
function mappingPaths(args: string): string[] {
  const valuePart = /\b(?:value|path)\s*=\s*(\{[^}]*\}|"[^"]*")/.exec(args)?.[1] ?? (/^\(\s*(\{[^}]*\}|"[^"]*")/.exec(args)?.[1] ?? '')
  const paths = [...valuePart.matchAll(/"([^"]*)"/g)].map((match) => match[1] ?? '')
  return paths.length > 0 ? paths : ['']
}

function guardsOf(uses: readonly AnnotationUse[]): GuardRef[] {
  const guards: GuardRef[] = []
  for (const use of uses) {
    const verdict = classifyJavaAnnotation(use.name, use.args.replace(/^\(|\)$/g, ''))
    if (verdict) guards.push({ name: `@${use.name}${use.args.startsWith('(') ? use.args : ''}`.slice(0, 120), line: use.line, ...verdict })
  }
  return guards
}

function applyAnnotations(file: JavaFile): void {
  const facts = file.facts
  const groups = groupByTarget(file.annotations)
  const definitionByStart = new Map(facts.definitions.map((definition, index) => [definition.start, index]))
  for (const [start, uses] of groups) {
    const index = definitionByStart.get(start)
    const definition = index === undefined ? undefined : facts.definitions[index]
    if (!definition || index === undefined) continue
    if (definition.kind === 'class') applyClassAnnotations(facts, definition.simple, definition.bases ?? [], uses, index)
  }
  for (const [start, uses] of groups) {
    const index = definitionByStart.get(start)
    const definition = index === undefined ? undefined : facts.definitions[index]
    if (definition?.kind === 'method' && index !== undefined) applyMethodAnnotations(facts, index, uses)
  }
  addServletRoutes(facts)
}

function applyClassAnnotations(facts: FileFacts, name: string, bases: readonly string[], uses: readonly AnnotationUse[], index: number): void {
  const names = new Set(uses.map((use) => use.name))
  const guards = guardsOf(uses)
  if (guards.length > 0) facts.classGuards[name] = guards
  const mapping = uses.find((use) => use.name === 'RequestMapping' || use.name === 'Path')
  if (names.has('RestController') || names.has('Controller') || names.has('Path')) {
    facts.scopes.push({ name, framework: names.has('Path') ? 'jax-rs' : 'spring', kind: 'router', prefix: mapping ? (mappingPaths(mapping.args)[0] ?? '') : '', line: facts.definitions[index]?.line ?? 0, guards })
  }
  const servlet = uses.find((use) => use.name === 'WebServlet')
  if (servlet && bases.some((base) => /Servlet$/.test(base))) {
    const patterns = /urlPatterns\s*=|value\s*=/.test(servlet.args) ? [...(/(?:urlPatterns|value)\s*=\s*(\{[^}]*\}|"[^"]*")/.exec(servlet.args)?.[1] ?? '').matchAll(/"([^"]*)"/g)] : [...servlet.args.matchAll(/"([^"]*)"/g)]
    facts.scopes.push({ name, framework: 'servlet', kind: 'router', prefix: patterns.map((match) => match[1] ?? '').join('|'), line: servlet.line, guards })
  }
  const entity = uses.find((use) => use.name === 'Entity' || use.name === 'Document' || use.name === 'Table')
  if (entity && !facts.models.some((model) => model.name === name)) facts.models.push({ name, orm: entity.name === 'Document' ? 'Spring Data MongoDB' : 'JPA', line: entity.line })
}

function applyMethodAnnotations(facts: FileFacts, index: number, uses: readonly AnnotationUse[]): void {
  const definition = facts.definitions[index]
  if (!definition) return
  const owner = definition.owner ?? ''
  const controller = facts.scopes.find((scope) => scope.name === owner && (scope.framework === 'spring' || scope.framework === 'jax-rs'))
  const guards = guardsOf(uses)
  for (const use of uses) {
    const verb = MAPPINGS[use.name]
    if (verb && controller?.framework === 'spring') {
      const methods = verb === 'ANY' ? [...use.args.matchAll(/RequestMethod\.(\w+)/g)].map((match) => match[1] ?? 'ANY') : [verb]
      for (const path of mappingPaths(use.args)) {
        for (const method of methods.length > 0 ? methods : ['ANY']) {
          facts.routes.push({ framework: 'spring', method, path, line: use.line, scope: owner, order: definition.start, handler: { kind: 'definition', index }, guards })
        }
      }
    }
    if (JAXRS_VERBS.has(use.name) && controller?.framework === 'jax-rs') {
      const path = uses.find((other) => other.name === 'Path')
      facts.routes.push({ framework: 'jax-rs', method: use.name, path: path ? (mappingPaths(path.args)[0] ?? '') : '', line: use.line, scope: owner, order: definition.start, handler: { kind: 'definition', index }, guards })
    }
    const listener = LISTENERS[use.name]
    if (listener) facts.entries.push({ kind: listener, name: `@${use.name}${use.args.startsWith('(') ? use.args.slice(0, 100) : ''}`, line: use.line, handler: index })
  }
}

/** `doGet`/`doPost` methods of a `@WebServlet` class. */
function addServletRoutes(facts: FileFacts): void {
  for (const scope of facts.scopes) {
    if (scope.framework !== 'servlet') continue
    facts.definitions.forEach((definition, index) => {
      const method = SERVLET_METHODS[definition.simple]
      if (!method || definition.owner !== scope.name) return
      for (const pattern of scope.prefix.split('|')) {
        facts.routes.push({ framework: 'servlet', method, path: pattern, line: definition.line, scope: `${scope.name}#servlet`, order: definition.start, handler: { kind: 'definition', index }, guards: [] })
      }
    })
  }
}
