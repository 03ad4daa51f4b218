/**
 * The types typed metavariables check (Java `(String $X)`, Go `($X : string)`, TypeScript
 * `($X: string)`), as far as a file says them without type inference: literals have their
 * literal's type, a constructed value its class (`new T()`, Go's `&T{}` and `new(T)`), a Java
 * cast its cast type, and a name the type of its declarations in the file (parameters, local
 * variables, fields; Go and TypeScript declarations initialised with a literal or a constructed
 * value). A Go name also takes the type of the call that made it (`r, err := zip.NewReader(...)`):
 * the results a function of the same file declares (`func open() (*sql.DB, error)`), or those of
 * a Go standard-library constructor (GO_LIBRARY_RESULTS, what a type checker would know of them).
 * Other function results are not typed. Scopes are not distinguished: a name declared with the
 * type anywhere in the file has it. Qualified and simple type names are equal
 * (`java.lang.String` is `String`).
 */
import type { SgNode } from '@ast-grep/napi'

/** Name -> the types it is declared with in a file. */
export type DeclaredTypes = Map<string, Set<string>>

/**
 * Result types of Go standard-library constructors, by `package.Function` as called (an import
 * alias is not followed: it is rare for these packages). The types a Semgrep rule names most;
 * the first result is the value, a trailing `error` is the second.
 */
const GO_LIBRARY_RESULTS: Readonly<Record<string, readonly string[]>> = {
  'zip.NewReader': ['*zip.Reader', 'error'],
  'zip.OpenReader': ['*zip.ReadCloser', 'error'],
  'zip.NewWriter': ['*zip.Writer'],
  'tar.NewReader': ['*tar.Reader'],
  'tar.NewWriter': ['*tar.Writer'],
  'gzip.NewReader': ['*gzip.Reader', 'error'],
  'gzip.NewWriter': ['*gzip.Writer'],
  'os.Open': ['*os.File', 'error'],
  'os.OpenFile': ['*os.File', 'error'],
  'os.Create': ['*os.File', 'error'],
  'os.CreateTemp': ['*os.File', 'error'],
  'sql.Open': ['*sql.DB', 'error'],
  'sql.OpenDB': ['*sql.DB'],
  'http.NewRequest': ['*http.Request', 'error'],
  'http.NewRequestWithContext': ['*http.Request', 'error'],
  'http.Get': ['*http.Response', 'error'],
  'http.Post': ['*http.Response', 'error'],
  'http.NewServeMux': ['*http.ServeMux'],
  'http.FileServer': ['http.Handler'],
  'url.Parse': ['*url.URL', 'error'],
  'exec.Command': ['*exec.Cmd'],
  'exec.CommandContext': ['*exec.Cmd'],
  'bufio.NewReader': ['*bufio.Reader'],
  'bufio.NewWriter': ['*bufio.Writer'],
  'bufio.NewScanner': ['*bufio.Scanner'],
  'json.NewDecoder': ['*json.Decoder'],
  'json.NewEncoder': ['*json.Encoder'],
  'xml.NewDecoder': ['*xml.Decoder'],
  'template.New': ['*template.Template'],
  'template.Must': ['*template.Template'],
  'template.ParseFiles': ['*template.Template', 'error'],
  'template.ParseGlob': ['*template.Template', 'error'],
  'regexp.Compile': ['*regexp.Regexp', 'error'],
  'regexp.MustCompile': ['*regexp.Regexp'],
  'tls.Dial': ['*tls.Conn', 'error'],
  'net.Dial': ['net.Conn', 'error'],
  'net.Listen': ['net.Listener', 'error'],
  'rand.New': ['*rand.Rand'],
  'md5.New': ['hash.Hash'],
  'sha1.New': ['hash.Hash'],
  'sha256.New': ['hash.Hash'],
  'hmac.New': ['hash.Hash'],
  'aes.NewCipher': ['cipher.Block', 'error'],
  'cipher.NewGCM': ['cipher.AEAD', 'error'],
  'strings.NewReader': ['*strings.Reader'],
  'strings.NewReplacer': ['*strings.Replacer'],
  'bytes.NewBuffer': ['*bytes.Buffer'],
  'bytes.NewBufferString': ['*bytes.Buffer'],
  'bytes.NewReader': ['*bytes.Reader'],
  'log.New': ['*log.Logger'],
  'errors.New': ['error'],
  'fmt.Errorf': ['error'],
  'fmt.Sprintf': ['string'],
  'strconv.Itoa': ['string'],
  'strconv.Atoi': ['int', 'error'],
}

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
  const results = language === 'go' ? goFunctionResults(root) : new Map<string, string[]>()
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
        // `a, b := f()`: one call gives each name one of its results
        const called = values.length === 1 && values[0]?.kind() === 'call_expression' ? goCallResults(values[0], results) : null
        names
          .filter((child) => child.kind() === 'identifier')
          .forEach((name, index) => {
            const value = values[index]
            add(name.text(), declared ?? (called ? (called[index] ?? null) : value ? literalType(value, language) : null))
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

/** The result types of the file's Go functions (not methods: `f()` names a function), by name. */
function goFunctionResults(root: SgNode): Map<string, string[]> {
  const results = new Map<string, string[]>()
  for (const declaration of root.findAll({ rule: { kind: 'function_declaration' } })) {
    const name = declaration.field('name')?.text()
    const result = declaration.field('result')
    if (!name || !result) continue
    // `T`, or `(T, error)` / `(db *sql.DB, err error)`: one type per result, a named group repeating its type
    const types =
      result.kind() === 'parameter_list'
        ? result
            .children()
            .filter((child) => child.kind() === 'parameter_declaration')
            .flatMap((parameter) => {
              const type = parameter.field('type')?.text()
              const count = Math.max(1, parameter.children().filter((child) => child.kind() === 'identifier').length)
              return type ? Array.from({ length: count }, () => type) : []
            })
        : [result.text()]
    results.set(name, types)
  }
  return results
}

/** What a Go call returns, when the file declares the function or it is a known library constructor. */
function goCallResults(call: SgNode, results: ReadonlyMap<string, string[]>): readonly string[] | null {
  const callee = call.field('function')
  if (!callee) return null
  if (callee.kind() === 'identifier') return results.get(callee.text()) ?? null
  if (callee.kind() === 'selector_expression' && callee.field('operand')?.kind() === 'identifier') return GO_LIBRARY_RESULTS[callee.text().replace(/\s+/g, '')] ?? null
  return null
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
