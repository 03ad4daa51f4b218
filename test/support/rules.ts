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
