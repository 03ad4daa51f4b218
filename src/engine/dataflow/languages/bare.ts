/**
 * Language specs for user taint rules: each built-in language's syntax and library semantics
 * (collections, string formatting, calls that never return), without its security catalog. A user rule's own sources, sinks, sanitizers and
 * propagators (overlay.ts) are the only ones; the built-in catalog would add findings and
 * sanitizers the rule never asked for. Go has a spec only here: its built-in catalog is empty.
 */
import type { FileLanguage } from '../../core/languages.ts'
import type { LanguageSpec } from '../spec.ts'
import { GO_SPEC } from './go.ts'
import { JAVA_SPEC } from './java.ts'
import { JAVASCRIPT_SPEC } from './javascript.ts'
import { PYTHON_SPEC } from './python.ts'

function bare(spec: LanguageSpec): LanguageSpec {
  const { noReturn, collectionWrites, collectionReads, opaqueCallbacks, mappers, formatters } = spec.semantics
  return {
    name: spec.name,
    languages: spec.languages,
    syntax: spec.syntax,
    sources: [],
    sinks: [],
    sanitizers: [],
    markers: [],
    guards: [],
    rejections: [],
    // Parsed URL views, escaping templates and parser configuration only serve built-in sink kinds.
    // Calls whose result the built-in catalog deems clean (`len()`, `isinstance()`, `redirect()`)
    // carry their arguments' data here, as Semgrep assumes (`taint_assume_safe_functions: false`):
    // a rule's sink or sanitizer decides, not our catalog.
    semantics: { noReturn, collectionWrites, collectionReads, opaqueCallbacks, mappers, formatters },
    sourceWords: [],
  }
}

const BARE: readonly LanguageSpec[] = [PYTHON_SPEC, JAVASCRIPT_SPEC, JAVA_SPEC, GO_SPEC].map(bare)

const BY_LANGUAGE = new Map<string, LanguageSpec>(BARE.flatMap((spec) => spec.languages.map((language): [string, LanguageSpec] => [language, spec])))

/** The bare spec of a file language, or null when the data-flow engine cannot lower it. */
export function bareSpecFor(language: FileLanguage): LanguageSpec | null {
  return BY_LANGUAGE.get(language) ?? null
}
