/**
 * The language specs the data-flow engine knows, by file language. A language without an entry
 * here is not analyzed for data flow.
 */
import type { CodeLanguage, FileLanguage } from '../../core/languages.ts'
import type { LanguageSpec } from '../spec.ts'
import { JAVA_SPEC } from './java.ts'
import { JAVASCRIPT_SPEC } from './javascript.ts'
import { PYTHON_SPEC } from './python.ts'

const SPECS: readonly LanguageSpec[] = [PYTHON_SPEC, JAVASCRIPT_SPEC, JAVA_SPEC]

const BY_LANGUAGE = new Map<string, LanguageSpec>(SPECS.flatMap((spec) => spec.languages.map((language): [string, LanguageSpec] => [language, spec])))

export function specFor(language: FileLanguage): LanguageSpec | null {
  return BY_LANGUAGE.get(language) ?? null
}

export function dataFlowLanguages(): CodeLanguage[] {
  return SPECS.flatMap((spec) => [...spec.languages])
}
