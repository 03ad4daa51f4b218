/**
 * Pieces every language extractor shares: recording definitions from nodes, finding the
 * innermost definition around a call, and the body hints that tell an authentication guard
 * from any other middleware.
 */
import type { Range, SgNode } from '@ast-grep/napi'
import type { CallFact, DefinitionFact, DefinitionKind, FileFacts } from '../model.ts'
import { lineAt, lineStarts, textHead } from '../text.ts'

/** A call as found in the tree, before its callee is read. */
export interface RawCall {
  node: SgNode
  start: number
  end: number
  line: number
}

/** What every language's extractor holds while it reads one file's tree. */
export class ExtractedFile {
  readonly rawCalls: RawCall[] = []
  /** libraries the file imports, and the kinds of component it declares */
  readonly libraries = new Set<string>()
  readonly kinds = new Set<string>()

  constructor(
    readonly facts: FileFacts,
    readonly text: string,
  ) {}

  /** The start of a node's text (up to `max` characters), from its range. */
  head(range: Range, max = 400): string {
    return textHead(this.text, range, max)
  }
}

export interface DefinitionInput {
  name: string
  simple?: string
  kind: DefinitionKind
  owner?: string
  bases?: string[]
  exported?: boolean
}

export function addDefinition(facts: FileFacts, node: SgNode, input: DefinitionInput, known?: Range): number {
  const range = known ?? node.range()
  const definition: DefinitionFact = {
    name: input.name,
    simple: input.simple ?? input.name,
    kind: input.kind,
    line: range.start.line + 1,
    endLine: range.end.line + 1,
    start: range.start.index,
    end: range.end.index,
    exported: input.exported ?? false,
  }
  if (input.owner) definition.owner = input.owner
  if (input.bases && input.bases.length > 0) definition.bases = input.bases
  facts.definitions.push(definition)
  return facts.definitions.length - 1
}

/**
 * Index of the innermost definition containing each offset (-1 at module level). Both lists
 * are walked once in order, keeping the chain of open definitions on a stack.
 */
export function innermostDefinitions(definitions: readonly DefinitionFact[], offsets: readonly number[]): number[] {
  const order = definitions.map((_, index) => index).sort((a, b) => {
    const x = definitions[a] as DefinitionFact
    const y = definitions[b] as DefinitionFact
    return x.start - y.start || y.end - x.end
  })
  const queries = offsets.map((offset, index) => ({ offset, index })).sort((a, b) => a.offset - b.offset)
  const result = new Array<number>(offsets.length).fill(-1)
  const stack: number[] = []
  let next = 0
  for (const query of queries) {
    while (next < order.length && (definitions[order[next] as number] as DefinitionFact).start <= query.offset) {
      const index = order[next] as number
      while (stack.length > 0 && (definitions[stack[stack.length - 1] as number] as DefinitionFact).end <= (definitions[index] as DefinitionFact).start) stack.pop()
      stack.push(index)
      next++
    }
    while (stack.length > 0 && (definitions[stack[stack.length - 1] as number] as DefinitionFact).end <= query.offset) stack.pop()
    result[query.index] = stack.length > 0 ? (stack[stack.length - 1] as number) : -1
  }
  return result
}

export function assignCallOwners(facts: FileFacts): void {
  const owners = innermostDefinitions(
    facts.definitions,
    facts.calls.map((call) => call.start),
  )
  facts.calls.forEach((call: CallFact, index) => {
    call.owner = owners[index] ?? -1
  })
}

/** Methods get their class from the innermost class definition around them. */
export function assignMethodOwners(facts: FileFacts): void {
  const classes = facts.definitions.filter((definition) => definition.kind === 'class')
  if (classes.length === 0) return
  for (const definition of facts.definitions) {
    if (definition.kind !== 'method' || definition.owner) continue
    let best: DefinitionFact | undefined
    for (const candidate of classes) {
      if (candidate.start <= definition.start && candidate.end >= definition.end && (!best || candidate.start > best.start)) best = candidate
    }
    if (best) {
      definition.owner = best.simple
      definition.name = `${best.simple}.${definition.simple}`
    }
  }
}

/**
 * What a function body does that an authentication guard does: verify a token, check a
 * session, read credentials from headers, refuse with 401/403. Read from the file's text and
 * given to every definition whose range holds the match.
 */
const AUTH_HINTS: Array<[hint: string, pattern: RegExp]> = [
  ['jwt', /\bjwt\.(?:verify|decode)\b|\bjwtVerify\b|\bverifyIdToken\b|\bjwt_required\b|\bdecode_token\b|\bverify_jwt_in_request\b|\bJwts\.parser/g],
  ['session', /\breq\.session\b|\bisAuthenticated\(\)|\bis_authenticated\b|\bsession\[\s*['"]user|\bgetServerSession\b|\bcurrent_user\b|\bget_current_user\b/g],
  ['bearer', /\b[Aa]uthorization\b|\bBearer\b/g],
  ['api-key', /\bx-api-key\b|\bapi[_-]?key\b|\bAPIKeyHeader\b/gi],
  ['basic', /\bBasic \b|\bbasic[-_]auth\b|\bHTTPBasic\b/g],
  ['passport', /\bpassport\.authenticate\b/g],
  ['deny', /\b40[13]\b|\bUnauthorized|\bForbidden|\bUNAUTHORIZED\b|\bFORBIDDEN\b|\bPermissionDenied\b|\bAuthenticationFailed\b|\bNotAuthenticated\b/g],
]

const HINT_TRIGGER = /[Aa]uth|jwt|Jwt|session|Bearer|api[_-]?key|Basic|passport|40[13]|current_user|Forbidden|Denied/

export function assignAuthHints(facts: FileFacts, text: string): void {
  if (facts.definitions.length === 0 || !HINT_TRIGGER.test(text)) return
  let starts: number[] | undefined
  for (const [hint, pattern] of AUTH_HINTS) {
    pattern.lastIndex = 0
    const offsets: number[] = []
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) offsets.push(match.index)
    if (offsets.length === 0) continue
    // String offsets, not bytes: compare by line, which both agree on.
    starts ??= lineStarts(text)
    const lineIndex = starts
    const lines = new Set(offsets.map((offset) => lineAt(lineIndex, offset)))
    for (const definition of facts.definitions) {
      if (definition.kind === 'class') continue
      for (const line of lines) {
        if (line >= definition.line && line <= definition.endLine) {
          const hints = (definition.authHints ??= [])
          if (!hints.includes(hint)) hints.push(hint)
          break
        }
      }
    }
  }
}

/** Whether body hints make a definition an authentication guard, and by what mechanism. */
export function guardMechanismFromHints(hints: readonly string[] | undefined): string | null {
  if (!hints || hints.length === 0) return null
  const has = (hint: string) => hints.includes(hint)
  if (has('passport')) return 'Passport'
  if (has('jwt')) return 'JWT'
  if (!has('deny') && !has('session')) return null
  if (has('api-key')) return 'API key'
  if (has('basic')) return 'HTTP basic auth'
  if (has('bearer')) return 'bearer token'
  if (has('session')) return 'session'
  return null
}
