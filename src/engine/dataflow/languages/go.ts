/**
 * Go for the data-flow engine: the tree-sitter node kinds of the Go grammar (functions and
 * methods, calls and selectors, `:=` / `=` / `var` with several names and values, if / for /
 * range / switch, returns of several values, composite literals, closures). Its security catalog
 * is empty: Go is analyzed only for user taint rules (languages/bare.ts), whose sources and sinks
 * are the rule's own; the built-in data-flow analyzer does not read Go. The files of a folder
 * are one package: their top-level functions are called across files without an import, and an
 * import path names the repository folder it ends with (program.ts).
 */
import type { LanguageSpec, NodeRule } from '../spec.ts'

const FUNCTION = { as: 'function', name: 'name', params: 'parameters', body: 'body', receiver: 'receiver' } as const
const WRAPPER = { as: 'transparent', inner: { nth: 0 } } as const
const FOR_CLAUSE = { kinds: ['for_clause'] } as const
/** what a loop's test can be: the for clause's `condition`, or an expression right after `for` */
const CONDITION_KINDS = ['binary_expression', 'unary_expression', 'identifier', 'call_expression', 'selector_expression', 'parenthesized_expression', 'true', 'false']

const nodes: Record<string, NodeRule> = {
  source_file: { as: 'block' },
  block: { as: 'block' },
  statement_list: { as: 'block' },
  comment: { as: 'ignore' },
  package_clause: { as: 'ignore' },
  import_spec: { as: 'import-package', path: 'path', alias: 'name' },
  type_declaration: { as: 'ignore' },
  inc_statement: { as: 'ignore' },
  dec_statement: { as: 'ignore' },
  empty_statement: { as: 'ignore' },
  iota: { as: 'ignore' },
  expression_statement: { as: 'transparent' },
  go_statement: WRAPPER,
  defer_statement: WRAPPER,
  labeled_statement: { as: 'block', body: { kinds: ['block', 'for_statement', 'expression_switch_statement', 'select_statement'] } },
  parenthesized_expression: WRAPPER,
  // `x.(string)`, `s[1:]`, `T(x)`: the value's data is the operand's
  type_assertion_expression: { as: 'transparent', inner: 'operand' },
  slice_expression: { as: 'transparent', inner: 'operand' },
  type_conversion_expression: { as: 'transparent', inner: 'operand' },
  composite_literal: { as: 'transparent', inner: 'body' },
  literal_element: WRAPPER,
  literal_value: { as: 'dict' },
  keyed_element: {
    as: 'pair',
    key: { kinds: ['interpreted_string_literal', 'raw_string_literal', 'int_literal', 'identifier', 'field_identifier'], in: 'key' },
    value: 'value',
    // A bare name key is a struct field (`T{Name: v}`); in a map literal it would be a variable
    // (`map[string]int{k: v}`), rare enough that reading it as a field name is the better guess.
    nameKeys: ['identifier', 'field_identifier'],
  },
  expression_list: { as: 'sequence' },
  short_var_declaration: { as: 'assign', target: 'left', value: 'right' },
  assignment_statement: { as: 'assign', target: 'left', value: 'right', operator: 'operator' },
  var_declaration: { as: 'declaration', declarators: { kinds: ['var_spec'] } },
  const_declaration: { as: 'declaration', declarators: { kinds: ['const_spec'] } },
  var_spec: { as: 'declarator', target: 'name', value: 'value' },
  const_spec: { as: 'declarator', target: 'name', value: 'value' },
  if_statement: { as: 'if', test: 'condition', then: 'consequence', else: 'alternative', init: 'initializer' },
  for_statement: {
    as: 'for',
    init: { kinds: ['short_var_declaration', 'assignment_statement'], in: FOR_CLAUSE },
    test: { kinds: CONDITION_KINDS, in: FOR_CLAUSE },
    testOr: { kinds: CONDITION_KINDS },
    update: { kinds: ['inc_statement', 'dec_statement', 'assignment_statement'], in: FOR_CLAUSE },
    body: 'body',
    each: { clause: { kinds: ['range_clause'] }, target: 'left', iterable: 'right' },
  },
  return_statement: { as: 'return' },
  break_statement: { as: 'break' },
  continue_statement: { as: 'continue' },
  expression_switch_statement: { as: 'switch', value: 'value', cases: { kinds: ['expression_case', 'default_case'] } },
  expression_case: { as: 'case', test: 'value', body: { kinds: ['statement_list'] } },
  default_case: { as: 'case', body: { kinds: ['statement_list'] } },
  function_declaration: FUNCTION,
  method_declaration: FUNCTION,
  func_literal: { as: 'function', params: 'parameters', body: 'body' },
  parameter_declaration: { as: 'param', target: 'name', type: 'type', several: true },
  variadic_parameter_declaration: { as: 'param', target: 'name', type: 'type', rest: 'list' },
  identifier: { as: 'name' },
  field_identifier: { as: 'name' },
  package_identifier: { as: 'name' },
  type_identifier: { as: 'name' },
  interpreted_string_literal: { as: 'string' },
  raw_string_literal: { as: 'string' },
  rune_literal: { as: 'literal', value: 'string' },
  int_literal: { as: 'literal', value: 'number' },
  float_literal: { as: 'literal', value: 'number' },
  true: { as: 'literal', value: 'true' },
  false: { as: 'literal', value: 'false' },
  nil: { as: 'literal', value: 'null' },
  selector_expression: { as: 'member', object: 'operand', property: 'field' },
  index_expression: { as: 'index', object: 'operand', index: 'index' },
  call_expression: { as: 'call', callee: 'function', args: 'arguments' },
  binary_expression: { as: 'binary', left: 'left', right: 'right', operator: 'operator' },
  unary_expression: { as: 'unary', operand: 'operand', operator: 'operator' },
}

export const GO_SPEC: LanguageSpec = {
  name: 'go',
  languages: ['go'],
  syntax: {
    nodes,
    decoratorKinds: [],
    operators: {
      and: ['&&'],
      or: ['||'],
      not: ['!'],
      equal: ['=='],
      notEqual: ['!='],
      clean: ['<', '>', '<=', '>=', '-', '*', '/', '%', '&', '|', '^', '&^', '<<', '>>'],
      // `&x`, `*p` and `<-ch` are the operand's data (a pointer to it, what it points to, what was sent)
      passThrough: ['&', '*', '<-'],
    },
    packageScope: true,
    moduleResolution: 'go',
  },
  sources: [],
  sinks: [],
  sanitizers: [],
  guards: [],
  semantics: {
    noReturn: ['panic', 'os.Exit', 'log.Fatal', 'log.Fatalf', 'log.Fatalln', 'log.Panic', 'log.Panicf'],
    formatters: [{ call: ['fmt.Sprintf', 'fmt.Errorf'], template: 0, placeholder: '%' }],
  },
  sourceWords: [],
}
