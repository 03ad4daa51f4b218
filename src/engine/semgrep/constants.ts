/**
 * Constant propagation, as far as `metavariable-comparison` needs it: Semgrep compares a
 * metavariable bound to a variable by the variable's constant value (`size = 512` ...
 * `new byte[size]` with `$N < 2048`). Here a name is a constant when the file assigns it
 * exactly once, with a number or string literal, and never updates it; its value is that
 * literal's code. Flow and scopes are not considered, so a name assigned twice anywhere is
 * not constant.
 */
import type { SgNode } from '@ast-grep/napi'

/** Assignment-like node kinds and the fields of their target and value, per language. */
const ASSIGNMENTS: Record<string, Array<{ kind: string; target: string; value: string | null }>> = {
  python: [
    { kind: 'assignment', target: 'left', value: 'right' },
    { kind: 'augmented_assignment', target: 'left', value: null },
  ],
  javascript: [
    { kind: 'variable_declarator', target: 'name', value: 'value' },
    { kind: 'assignment_expression', target: 'left', value: 'right' },
    { kind: 'augmented_assignment_expression', target: 'left', value: null },
    { kind: 'update_expression', target: 'argument', value: null },
  ],
  java: [
    { kind: 'variable_declarator', target: 'name', value: 'value' },
    { kind: 'assignment_expression', target: 'left', value: 'right' },
    { kind: 'update_expression', target: '', value: null },
  ],
  go: [
    { kind: 'short_var_declaration', target: 'left', value: 'right' },
    { kind: 'assignment_statement', target: 'left', value: 'right' },
    { kind: 'var_spec', target: 'name', value: 'value' },
    { kind: 'const_spec', target: 'name', value: 'value' },
    { kind: 'inc_statement', target: '', value: null },
    { kind: 'dec_statement', target: '', value: null },
  ],
}
ASSIGNMENTS.typescript = ASSIGNMENTS.javascript as (typeof ASSIGNMENTS)['javascript']
ASSIGNMENTS.tsx = ASSIGNMENTS.javascript as (typeof ASSIGNMENTS)['javascript']

const LITERAL = /^(?:[-+]?(?:0[xXoObB][0-9a-fA-F_]+|\d[\d_]*(?:\.\d*)?(?:[eE][-+]?\d+)?)[lLfFdD]?|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')$/
const NAME = /^[A-Za-z_$][\w$]*$/

/** Name -> the literal code of its single assignment, for the names that have one. */
export function fileConstants(root: SgNode, language: string): Map<string, string> {
  const kinds = ASSIGNMENTS[language]
  const constants = new Map<string, string>()
  if (!kinds) return constants
  const assigned = new Map<string, number>()
  for (const spec of kinds) {
    for (const node of root.findAll({ rule: { kind: spec.kind } })) {
      const targetNode = spec.target === '' ? (node.children().find((child) => child.isNamed()) ?? null) : node.field(spec.target)
      const targets = listOf(targetNode)
      const values = spec.value === null ? [] : listOf(node.field(spec.value))
      targets.forEach((target, index) => {
        const name = target.text()
        if (!NAME.test(name)) return
        assigned.set(name, (assigned.get(name) ?? 0) + 1)
        const value = values[index]?.text().trim()
        if (value !== undefined && LITERAL.test(value)) constants.set(name, value)
        else constants.delete(name)
      })
    }
  }
  for (const [name, count] of assigned) if (count !== 1) constants.delete(name)
  return constants
}

/** The names (or values) of a target or value list (`a, b := 1, 2`), or the node itself. */
function listOf(node: SgNode | null): SgNode[] {
  if (!node) return []
  if (node.kind() === 'expression_list' || node.kind() === 'pattern_list' || node.kind() === 'expression_statement') {
    return node.children().filter((child) => child.isNamed())
  }
  return [node]
}
