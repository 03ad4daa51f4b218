/**
 * What the interpreter knows about one call while matching it against the catalog: evaluated
 * arguments, receiver, names; and the catalog conditions and argument selections (which
 * arguments of a sink are dangerous, whether `shell=True` is set...) evaluated on it.
 */
import type { Arg, Expr } from './ir.ts'
import { lowestMajor } from './manifests.ts'
import type { FileUnit } from './program.ts'
import type { ArgRef, Condition, ConfigMark, SinkSpec } from './spec.ts'
import { deepFacts, readField } from './values.ts'
import type { Fact, Val } from './values.ts'

export interface ArgVal {
  readonly arg: Arg
  readonly value: Val
}

export interface CallContext {
  readonly expr: Extract<Expr, { t: 'call' }>
  readonly args: readonly ArgVal[]
  readonly receiver: Val | null
  /** the callee's qualified name (through imports and types) and its name as written */
  readonly names: ReadonlyArray<string | null>
  /** the callee as written, for traces */
  readonly label: string
  readonly unit: FileUnit
  /** the file declaring the receiver's library type when another file does (`Db.TPL` typed in Db.java): its imports count too */
  readonly typeUnit?: FileUnit | null
}

/** The field that holds a configuration mark (not a name any program can write). */
export function markField(mark: ConfigMark): string {
  return `\u0000${mark}`
}

export function isMarked(value: Val | null, mark: ConfigMark): boolean {
  return value?.fields?.get(markField(mark))?.constant === true
}

const regexes = new Map<string, RegExp>()

/** Catalog regexes are few and used on every matching call: compiled once. */
export function regex(source: string): RegExp {
  let compiled = regexes.get(source)
  if (!compiled) {
    compiled = new RegExp(source)
    regexes.set(source, compiled)
  }
  return compiled
}

/** The argument an ArgRef names: by keyword first, else by position among positional ones. */
export function argFor(ref: ArgRef, context: CallContext): ArgVal | undefined {
  if (ref.keyword !== undefined) {
    const byKeyword = context.args.find(({ arg }) => arg.keyword === ref.keyword)
    if (byKeyword) return byKeyword
  }
  if (ref.index === undefined) return undefined
  return context.args.filter(({ arg }) => arg.keyword === null)[ref.index]
}

export function conditionsHold(conditions: readonly Condition[], context: CallContext): boolean {
  return conditions.every((condition) => conditionHolds(condition, context))
}

export function conditionHolds(condition: Condition, context: CallContext): boolean {
  if ('imports' in condition) return context.unit.importsAny(condition.imports) || (context.typeUnit?.importsAny(condition.imports) ?? false)
  if ('mentions' in condition) return context.unit.mentionsAny(condition.mentions)
  if ('dependency' in condition) {
    const range = context.unit.manifests?.versionFor(context.unit.path, condition.dependency.name)
    const major = range ? lowestMajor(range) : null
    return major !== null && major >= condition.dependency.atLeast
  }
  if ('minArgs' in condition) return context.args.filter(({ arg }) => arg.keyword === null).length >= condition.minArgs
  if ('option' in condition) return argFor({ index: condition.optionsIndex }, context)?.value.fields?.has(condition.option) ?? false
  if ('method' in condition) return context.expr.callee.t === 'member'
  if ('marked' in condition) {
    const subject = condition.index === undefined && condition.keyword === undefined ? context.receiver : argFor(condition, context)?.value
    return isMarked(subject ?? null, condition.marked) !== (condition.absent === true)
  }
  if ('receiverText' in condition) {
    const callee = context.expr.callee
    return callee.t === 'member' && regex(condition.receiverText).test(callee.object.site.text)
  }
  if ('receiverSource' in condition) {
    const facts = context.receiver ? deepFacts(context.receiver) : []
    return facts.some((fact) => fact.origin.type === 'source' && condition.receiverSource.includes(fact.origin.kind))
  }
  if ('receiverConstant' in condition) {
    const constant = context.receiver?.constant
    return typeof constant === 'string' && regex(condition.receiverConstant).test(constant)
  }
  if ('receiverType' in condition) {
    const receiver = context.receiver
    const typed = receiver?.ref?.t === 'type' ? receiver.ref.name : receiver?.qname
    return typeof typed === 'string' && regex(condition.receiverType).test(typed)
  }
  if ('argType' in condition) {
    const found = argFor({ index: condition.argType.index }, context)
    if (found === undefined) return false
    const typed = found.value.ref?.t === 'type' ? found.value.ref.name : found.value.qname
    return regex(condition.argType.matches).test(typed ?? found.arg.value.site.text) !== (condition.argType.absent === true)
  }
  if ('argText' in condition) {
    const found = argFor({ index: condition.argText.index, keyword: condition.argText.keyword }, context)
    if (found === undefined) return condition.argText.orMissing === true
    return regex(condition.argText.matches).test(found.arg.value.site.text)
  }
  const options = condition.optionsIndex === undefined ? undefined : argFor({ index: condition.optionsIndex }, context)
  const value = options ? readField(options.value, condition.keyword) : context.args.find(({ arg }) => arg.keyword === condition.keyword)?.value
  return value !== undefined && value.constant === condition.equals
}

/** The facts one dangerous argument carries into a sink. */
function argRefFacts(ref: ArgRef, found: ArgVal): readonly Fact[] {
  const { arg, value } = found
  if (ref.field !== undefined) return deepFacts(readField(value, ref.field))
  if (ref.structuredFields) return structuredFieldFacts(value)
  if (ref.shallow) return value.facts
  if (ref.program && arg.value.t === 'list') return deepFacts(readField(value, '0'))
  return deepFacts(value)
}

/** Facts of a filter's field values that can hold an object: from a structured source, or a parameter. */
function structuredFieldFacts(value: Val): readonly Fact[] {
  const facts: Fact[] = []
  for (const field of value.fields?.values() ?? []) {
    for (const fact of deepFacts(field)) if (fact.origin.type === 'param' || fact.origin.structured === true) facts.push(fact)
  }
  return facts
}

/** The dangerous arguments of a sink call (every positional one by default), with their facts. */
export function sinkArguments(spec: SinkSpec, context: CallContext): Array<{ value: Val; facts: readonly Fact[] }> {
  if (!spec.args) return context.args.filter(({ arg }) => arg.keyword === null).map(({ value }) => ({ value, facts: deepFacts(value) }))
  const result: Array<{ value: Val; facts: readonly Fact[] }> = []
  for (const ref of spec.args) {
    if (ref.receiver) {
      if (context.receiver) result.push({ value: context.receiver, facts: deepFacts(context.receiver) })
      continue
    }
    const found = argFor(ref, context)
    if (found && ref.elements && found.value.fields) {
      for (const element of found.value.fields.values()) result.push({ value: element, facts: deepFacts(element) })
      continue
    }
    if (found) result.push({ value: found.value, facts: argRefFacts(ref, found) })
  }
  return result
}
