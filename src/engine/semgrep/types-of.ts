/**
 * The types typed metavariables check (Java `(String $X)`, Go `($X : string)`, TypeScript
 * `($X: string)`), as far as a file says them without type inference: literals have their
 * literal's type, a constructed value its class (`new T()`, Go's `&T{}` and `new(T)`), a Java
 * cast its cast type, and a name the type of its declarations in the file (parameters, local
 * variables, fields; Go and TypeScript declarations initialised with a literal or a constructed
 * value). Function results are not typed. Scopes are not distinguished: a name declared with the type anywhere in the file
 * has it. Qualified and simple type names are equal (`java.lang.String` is `String`).
 */
import type { SgNode } from '@ast-grep/napi'

/** Name -> the types it is declared with in a file. */
export type DeclaredTypes = Map<string, Set<string>>

const DECLARATION_KINDS: Record<string, string[]> = {
  java: ['field_declaration', 'local_variable_declaration', 'formal_parameter', 'catch_formal_parameter', 'enhanced_for_statement'],
  go: ['parameter_declaration', 'var_spec', 'short_var_declaration', 'const_spec'],
  typescript: ['required_parameter', 'optional_parameter', 'variable_declarator', 'public_field_definition'],
  tsx: ['required_parameter', 'optional_parameter', 'variable_declarator', 'public_field_definition'],
}

export function declaredTypes(root: SgNode, language: string): DeclaredTypes {
  const types: DeclaredTypes = new Map()
  const add = (name: string, type: string | null): void => {
    if (!type) return
    let set = types.get(name)
    if (!set) types.set(name, (set = new Set()))
    set.add(normalizeType(type))
  }
  const kinds = DECLARATION_KINDS[language]
  if (!kinds) return types
  for (const node of root.findAll({ rule: { any: kinds.map((kind) => ({ kind })) } })) {
    const children = node.children().filter((child) => child.isNamed())
    switch (language) {
      case 'java': {
        const type = node.field('type')?.text() ?? null
        if (node.kind() === 'formal_parameter' || node.kind() === 'catch_formal_parameter' || node.kind() === 'enhanced_for_statement') {
          const name = node.field('name')?.text()
          if (name) add(name, type)
        } else {
          for (const declarator of children.filter((child) => child.kind() === 'variable_declarator')) {
            const name = declarator.field('name')?.text()
            const value = declarator.field('value')
            if (name) add(name, type === 'var' ? (value ? literalType(value, language) : null) : type)
          }
        }
        break
      }
      case 'go': {
        const declared = node.field('type')?.text() ?? null
        const names = node.kind() === 'short_var_declaration' ? (node.field('left')?.children() ?? []) : children.filter((child) => child.kind() === 'identifier')
        const values = (node.kind() === 'short_var_declaration' ? node.field('right') : node.field('value'))?.children().filter((child) => child.isNamed()) ?? []
        names
          .filter((child) => child.kind() === 'identifier')
          .forEach((name, index) => {
            const value = values[index]
            add(name.text(), declared ?? (value ? literalType(value, language) : null))
          })
        break
      }
      default: {
        const name = (node.field('pattern') ?? node.field('name'))?.text()
        const annotation = node.field('type')?.text().replace(/^:\s*/, '') ?? null
        const value = node.field('value')
        if (name) add(name, annotation ?? (value ? literalType(value, language) : null))
      }
    }
  }
  return types
}

/** Whether the captured expression has the type. */
export function typeMatches(node: SgNode, type: string, types: DeclaredTypes, language: string): boolean {
  const wanted = normalizeType(type)
  const kind = String(node.kind())
  if (kind === 'identifier') return types.get(node.text())?.has(wanted) ?? false
  // `this.name`: a field or (TypeScript) a constructor parameter property
  const member = /^this\s*\.\s*([A-Za-z_$][\w$]*)$/.exec(node.text())
  if (member && (kind === 'member_expression' || kind === 'field_access')) return types.get(member[1] as string)?.has(wanted) ?? false
  if (kind === 'cast_expression' && language === 'java') return normalizeType(node.field('type')?.text() ?? '') === wanted
  if (kind === 'parenthesized_expression') {
    const inner = node.children().find((child) => child.isNamed())
    return inner ? typeMatches(inner, type, types, language) : false
  }
  const literal = literalType(node, language)
  return literal !== null && normalizeType(literal) === wanted
}

function literalType(node: SgNode, language: string): string | null {
  const kind = String(node.kind())
  switch (language) {
    case 'java':
      if (kind === 'string_literal' || kind === 'text_block') return 'String'
      if (/integer_literal$/.test(kind)) return /[lL]$/.test(node.text()) ? 'long' : 'int'
      if (kind === 'decimal_floating_point_literal') return /[fF]$/.test(node.text()) ? 'float' : 'double'
      if (kind === 'true' || kind === 'false') return 'boolean'
      if (kind === 'character_literal') return 'char'
      if (kind === 'object_creation_expression') return node.field('type')?.text() ?? null
      return null
    case 'go':
      if (kind === 'interpreted_string_literal' || kind === 'raw_string_literal') return 'string'
      if (kind === 'int_literal') return 'int'
      if (kind === 'float_literal') return 'float64'
      if (kind === 'true' || kind === 'false') return 'bool'
      // constructed values: T{...}, &T{...}, new(T)
      if (kind === 'composite_literal') return node.field('type')?.text() ?? null
      if (kind === 'unary_expression' && node.text().startsWith('&')) {
        const operand = node.field('operand')
        return operand?.kind() === 'composite_literal' ? `*${operand.field('type')?.text() ?? ''}` : null
      }
      if (kind === 'call_expression' && node.field('function')?.text() === 'new') {
        const type = node.field('arguments')?.children().find((child) => child.isNamed())
        return type ? `*${type.text()}` : null
      }
      return null
    default:
      if (kind === 'string' || kind === 'template_string') return 'string'
      if (kind === 'number') return 'number'
      if (kind === 'true' || kind === 'false') return 'boolean'
      if (kind === 'new_expression') return node.field('constructor')?.text() ?? null
      return null
  }
}

/** Whitespace removed, qualified names reduced to their last segment (generic arguments kept). */
function normalizeType(type: string): string {
  const flat = type.replace(/\s+/g, '')
  return flat.replace(/(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_]\w*)/g, '')
}
