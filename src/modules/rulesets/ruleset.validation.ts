/**
 * What a ruleset accepts, once for both surfaces: field limits (the REST body schema and the
 * GraphQL input check share them) and, for rules_text, the engine's rule parser, which also
 * applies the configured bounds on rule texts (size, rules, nesting, pattern length: see
 * src/engine/rules/limits.ts) before ast-grep sees anything.
 */
import { z } from 'zod'
import type { RuleLimits } from '../../engine/rules/limits.ts'
import { ValidationError } from '../../errors.ts'
import { parseInput } from '../../http/rest/validation.ts'
import type { RulesetInput } from './ruleset.service.ts'

// rules_text is bounded by the rule limits (RULES_MAX_BYTES), checked with the rules themselves
export const RULESET_LIMITS = { name: 200, description: 2000, repoIds: 500 } as const

const name = z.string().trim().min(1).max(RULESET_LIMITS.name)
const description = z.string().max(RULESET_LIMITS.description)
const rulesText = z.string().min(1)
const repoIds = z.array(z.uuid()).max(RULESET_LIMITS.repoIds)

/** REST bodies (snake_case, as the spec). */
export const createRulesetBody = z.object({ name, rules_text: rulesText, description: description.optional(), repo_ids: repoIds.optional() })
export const updateRulesetBody = z.object({
  name: name.optional(),
  rules_text: rulesText.optional(),
  description: description.optional(),
  repo_ids: repoIds.optional(),
})

const graphqlCreate = z.object({ name, rulesText, description: description.nullish(), repoIds: repoIds.nullish() })
const graphqlUpdate = z.object({ name: name.nullish(), rulesText: rulesText.nullish(), description: description.nullish(), repoIds: repoIds.nullish() })

export async function checkRulesetInput(input: RulesetInput, mode: 'create', limits?: RuleLimits): Promise<RulesetInput & { name: string; rulesText: string }>
export async function checkRulesetInput(input: RulesetInput, mode: 'update', limits?: RuleLimits): Promise<RulesetInput>
export async function checkRulesetInput(input: RulesetInput, mode: 'create' | 'update', limits?: RuleLimits): Promise<RulesetInput> {
  const checked = parseInput(mode === 'create' ? graphqlCreate : graphqlUpdate, input, 'body')
  if (checked.rulesText != null) await checkRules(checked.rulesText, limits)
  return checked
}

/** The engine's rule parser decides; every problem is reported, each naming its rule and line. */
async function checkRules(text: string, limits: RuleLimits | undefined): Promise<void> {
  // the parser brings the syntax-tree engine with it: API processes load it on the first ruleset write only
  const { parseRulesText, RuleValidationError } = await import('../../engine/rules/loader.ts')
  try {
    parseRulesText(text, 'rules_text', limits ? { limits } : {})
  } catch (error) {
    if (!(error instanceof RuleValidationError)) throw error
    throw new ValidationError(
      error.problems.map((problem) => ({
        loc: ['body', 'rules_text'],
        msg: `${problem.ruleId ? `rule "${problem.ruleId}"` : 'rules_text'} (line ${problem.line}): ${problem.message}`,
        type: 'value_error',
        line: problem.line,
        ruleId: problem.ruleId,
      })),
    )
  }
}
