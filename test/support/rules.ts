import { SLOW_MATCH } from '../engine/support/hostile.ts'

/** A valid one-rule ruleset text, for tests that need rules_text the engine accepts. */
export const EVAL_RULES = `id: custom.no-eval
language: javascript
rule:
  pattern: eval($X)
severity: high
message: eval of $X
title: eval
category: code-injection
cwe: [CWE-95]
owasp: "A03:2021 - Injection"
cvss: 8.1
confidence: 0.9
remediation: Do not evaluate strings.
`

/**
 * A ruleset whose rule is cubic in a file's identifiers inside one native ast-grep call (every
 * identifier, then every identifier of the program, then the whole program again, looking for
 * `zzz`, which only a comment holds): minutes on slowProject()'s slow.js, and no thread can
 * interrupt it. Its second rule finds eval() calls.
 */
export const SLOW_RULES = `id: custom.slow
language: javascript
severity: low
message: slow
rule:${SLOW_MATCH}
---
${EVAL_RULES}`
