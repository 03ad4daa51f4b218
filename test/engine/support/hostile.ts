/** Rules and files built to take forever, for the tests of the engine's time limits. */
import { ruleYaml } from './helpers.ts'

/**
 * An ast-grep rule whose matching is cubic in the file's identifiers: every identifier, then
 * every identifier of the program, then the whole program again, searched for one that is not
 * there (`zzz` only appears in a comment, enough for the rule's word precondition). On 400 lines
 * one native call runs for minutes, and no thread can interrupt it.
 */
export const SLOW_MATCH = `
  # in an any: the analyzer decides a rule's own condition on the whole program once per file, and
  # leaves this one to ast-grep, for every identifier
  any:
    - kind: identifier
      inside:
        stopBy: end
        kind: program
        has:
          stopBy: end
          kind: identifier
          inside:
            stopBy: end
            kind: program
            has: { stopBy: end, kind: identifier, regex: '^zzz$' }`
export const SLOW_RULE = ruleYaml({ id: 'js.slow', language: 'javascript', message: 'slow', rule: SLOW_MATCH })
export const EVAL_RULE = ruleYaml({ id: 'js.eval', language: 'javascript', rule: '\n  pattern: eval($X)', message: 'eval' })
export const slowFile = () => `// zzz\n${Array.from({ length: 400 }, (_, index) => `a${index} = b${index} + c${index};`).join('\n')}\n`
