/**
 * Abstract interpretation of one function (or a file's top level) over the language-neutral
 * form: a flow-sensitive environment of values, branches joined, constant conditions followed
 * only where they can run, loops iterated to a small fixpoint, guards refining the branch they
 * protect. Sources create taint, sanitizers clean it for some sink kinds, sinks report it (to
 * the engine for real sources, to the summary for parameters), and calls to project functions
 * go through their summaries (or are analyzed in place for callbacks and local functions).
 */
import type { ClassDef, Const, Expr, FunctionDef, Param, Stmt, Target } from './ir.ts'
import { pathOf } from './ir.ts'
import { conditionHolds, conditionsHold, isMarked, markField, regex, sinkArguments } from './call-context.ts'
import type { CallContext } from './call-context.ts'
import type { CompiledRejection } from './catalog.ts'
import type { Engine, ParamSink, SinkHit, Summary } from './engine.ts'
import { ENGINE_LIMITS } from './engine.ts'
import { argumentsList, bag, exactLength, inexact, listAppend, listExtend, listInsert, listOf, listRemoveAt, listRemoveValue, listSet, listShiftKnownFirst, listSplice, positionKey } from './collections.ts'
import { concatChoices, concatPrefix, foldBinary, foldStringMethod, foldToString, templatePrefix } from './fold.ts'
import { checkAlgorithm, configRead, springFieldValue, springValue } from './crypto.ts'
import { lastSegment } from './glob.ts'
import { passwordCallResult, passwordRead } from './passwords.ts'
import { ALL_SINK_KINDS_MASK, SOURCE_KIND_INFO, sinkKindBit, sinkKindsMask } from './kinds.ts'
import type { SinkKind } from './kinds.ts'
import { isSecretName, secretNameSink } from './secret-names.ts'
import { MERGED_KEYS_EXCEPT, NULL_PROTOTYPE, REACHED_BY_KEY, completeExclusion, countsAtWrite, descendsByKey, exclusionMask, firstCharacterOf, heldPrototypeKeys, mayBePrototypeKey, prototypeKeyLiteral, prototypeKeys, prototypeKeysNamedIn, prototypeKeysStartingWith, prototypeSink, reachedByKey, startTest } from './pollution.ts'
import { lengthBoundBit, parseRegexLiteral, regexLiteralOf } from './redos.ts'
import { MAX_PREDICATE_DEPTH, instantiate as instantiatePredicate, predicateBody, validatorTests } from './predicates.ts'
import type { FileUnit } from './program.ts'
import type { ConfigMark, GuardSpec, SinkSpec, SourceSpec } from './spec.ts'
import { State, joinStates } from './state.ts'
import {
  CLEAN,
  cleaned,
  concatFact,
  constantVal,
  deepFacts,
  factWithStep,
  instantiate,
  isTainted,
  join,
  mergeFacts,
  normalized,
  paramFact,
  readAny,
  readField,
  smear,
  sourceFact,
  truthiness,
  val,
  withField,
  withStep,
} from './values.ts'
import type { Fact, Step, Val } from './values.ts'
import { WEAK_CHECK_NOTE, hostCheckSubject, weakCheckOf } from './weak-checks.ts'
import { USER_SINK_KIND } from './overlay.ts'
import { wrapperDeclaration } from './wrappers.ts'
import type { OverlaySink, TaintOverlay, TextRange } from './overlay.ts'

/** Every configuration mark (ConfigurationSpec), carried from configured objects to what they make. */
const CONFIG_MARKS: readonly ConfigMark[] = ['hardened', 'resolving']
/**
 * A regex run's sink until a source reaches it and its pattern is judged (Engine.record): the
 * kind and the sources that count, as redos.ts's backtrackingSink gives them.
 */
const PENDING_BACKTRACKING: SinkSpec = { kind: 'backtracking', note: 'regular expression run', sources: ['remote'] }

type Lookup = (name: string) => Val | undefined

/**
 * What a parsed or normalized value is a view of: the access paths whose data went in, and the
 * sink kinds a check validates for them (per component for parsed URLs, `whole` for a
 * normalized path checked as a whole).
 */
interface View {
  readonly sources: readonly Expr[]
  readonly components: Readonly<Record<string, readonly SinkKind[]>> | null
  readonly whole: readonly SinkKind[]
}

interface Frame {
  readonly breaks: State[]
  readonly continues: State[]
}

export class FunctionRun {
  private returns: Val | null = null
  private receiverOut: Val | null = null
  private readonly paramSinks: ParamSink[] = []
  /**
   * Of paramSinks, the regex runs not judged yet (Engine.record): bounded on their own, as most
   * are no sinks and must not crowd out the sinks that are.
   */
  private pendingRegexRuns = 0
  private readonly frames: Frame[] = []
  private readonly returnSinks: readonly SinkSpec[]
  /** the last statement-level call that never returns (abort(), process.exit()) */
  private noReturnCall: Expr | null = null
  /** how deep project predicates are being inlined into the current test (predicates.ts) */
  private predicateDepth = 0
  /** parser and normalization calls evaluated here: what their result is a view of */
  private readonly viewCalls = new Map<Expr, View>()
  /** variables holding a view of other values (`u = urlparse(x)`): checks on them validate those */
  private readonly views = new Map<string, View>()
  /** with a user taint rule: the last value of each evaluated range (a sink's arguments, a propagator's input) */
  private readonly rangeValues = new Map<string, Val>()

  constructor(
    private readonly engine: Engine,
    private readonly unit: FileUnit,
    /** null: the file's top level */
    private readonly fn: FunctionDef | null,
    private readonly outer: Lookup | null,
    private readonly inlineDepth: number,
  ) {
    this.returnSinks = fn ? unit.catalog.returnSinksFor(fn) : []
  }

  private get syntax() {
    return this.unit.spec.syntax
  }

  private get catalog() {
    return this.unit.catalog
  }

  // --- entry points -----------------------------------------------------------------------

  /** Runs the function with symbolic parameters (plus parameter sources): its summary. */
  summarize(): Summary {
    const fn = this.fn
    if (!fn) throw new Error('summarize() needs a function')
    const state = new State()
    const receiver = fn.owner && !fn.isStatic ? val({ facts: [paramFact(-1)], ref: { t: 'instance', cls: fn.owner } }) : fn.receiver ? val({ facts: [paramFact(-1)] }) : null
    this.bindParams(state, receiver, (index) => val({ facts: [paramFact(index)] }))
    return this.finish(this.execBlock(fn.body(), state))
  }

  /** Runs the function with actual values in place (callbacks, local functions). */
  runWith(receiver: Val | null, args: ReadonlyMap<number, Val>): Summary {
    const fn = this.fn
    if (!fn) throw new Error('runWith() needs a function')
    const state = new State()
    this.bindParams(state, receiver, (index) => args.get(index) ?? CLEAN)
    return this.finish(this.execBlock(fn.body(), state))
  }

  /**
   * Runs the function with every argument clean and returns its variables where it ends: what a
   * wrapper that runs once (`(function () { ... module.exports = api })()`) leaves behind.
   */
  endState(): State | null {
    const state = new State()
    this.bindParams(state, null, () => CLEAN)
    return this.execBlock((this.fn as FunctionDef).body(), state)
  }

  /** Runs a file's top level into `state`, which stays the module's environment object. */
  runModule(state: State): void {
    this.hoist(this.unit.top(), state)
    for (const stmt of this.unit.top()) {
      const next = this.exec(stmt, state)
      // The module environment must stay the same object: others read it while it fills.
      if (next && next !== state) state.vars = next.vars
      if (!next) break
    }
  }

  private finish(end: State | null): Summary {
    if (end) this.captureReceiver(end)
    return { returns: this.returns ?? CLEAN, sinks: this.paramSinks, receiverOut: this.receiverOut }
  }

  /** The receiver's variable: `this`, or Python's explicit first parameter. */
  private get receiverName(): string {
    const fn = this.fn
    if (fn?.receiver?.name) return fn.receiver.name
    if (fn && this.syntax.explicitSelf && fn.owner && !fn.isStatic) return fn.params[0]?.name ?? 'this'
    return 'this'
  }

  private captureReceiver(state: State): void {
    const receiver = state.vars.get(this.receiverName)
    if (receiver) this.receiverOut = this.receiverOut ? join(this.receiverOut, receiver) : receiver
  }

  private bindParams(state: State, receiver: Val | null, argument: (index: number) => Val): void {
    const fn = this.fn as FunctionDef
    let selfIndex = -1
    if (receiver) {
      state.vars.set('this', receiver)
      // Go: `func (s *Server) h()` names its receiver `s`
      if (fn.receiver?.name) state.vars.set(fn.receiver.name, fn.receiver.type ? this.typed(receiver, fn.receiver.type) : receiver)
      if (this.syntax.explicitSelf && fn.params[0]?.name) {
        selfIndex = 0
        state.vars.set(fn.params[0].name, receiver)
      }
    }
    fn.params.forEach((param, index) => {
      if (index === selfIndex) return
      let value = argument(index)
      const position = selfIndex === 0 ? index - 1 : index
      for (const source of this.catalog.paramSourcesFor(fn, param, position)) {
        const name = param.name ?? `#${position + 1}`
        value = join(value, this.sourceValue({ ...source, label: `${source.label ?? 'parameter'} ${name}` }, param.site, name))
      }
      const userSource = this.userParamSource(param)
      if (userSource) value = join(value, userSource)
      if (param.type) value = this.typed(value, param.type)
      // Spring injects `@Value("${key}")` parameters from the repository's configuration.
      const injected = param.decorators.includes('Value') ? springValue(this.engine.program, param.site.text) : null
      if (injected) value = { ...value, choices: injected }
      this.checkSecretName(param.name, value, param.site, `passed as parameter ${param.name}`)
      this.bind(param.target, value, state)
      if (param.isProperty && param.name && receiver) {
        state.vars.set('this', withField(state.vars.get('this') ?? receiver, param.name, value))
      }
    })
    const argumentsName = this.syntax.argumentsObject
    // Only where the function's text names it: each position is a parameter fact of its own.
    if (argumentsName && this.unit.text.slice(fn.start, fn.end).includes(argumentsName)) state.vars.set(argumentsName, argumentsList(fn.params.length, argument))
  }

  /** `path`: the file the type is written in (a field's declaring file): its imports name the type. */
  private typed(value: Val, type: string, path = this.unit.path): Val {
    // A number or boolean carries no text: clean for every injection kind (a guessable draw stays guessable).
    const site = this.syntax.scalarTypes?.includes(type) ? (value.facts[0]?.steps.at(-1)?.site ?? this.fn?.site) : undefined
    if (site) return cleaned(value, sinkKindsMask('all'), { site, note: `declared ${type}` })
    return { ...value, ref: value.ref ?? { t: 'type', name: type, path }, qname: value.qname ?? type }
  }

  // --- statements -------------------------------------------------------------------------

  /** Binds function and class declarations first: they can be used before their line. */
  private hoist(stmts: readonly Stmt[], state: State): void {
    for (const stmt of stmts) {
      if (stmt.t === 'function' && stmt.fn.name) state.vars.set(stmt.fn.name, val({ ref: { t: 'function', fn: stmt.fn, receiver: null } }))
      if (stmt.t === 'class' && stmt.cls.name) state.vars.set(stmt.cls.name, val({ ref: { t: 'class', cls: stmt.cls } }))
    }
  }

  private execBlock(stmts: readonly Stmt[], start: State | null): State | null {
    let state = start
    if (state && stmts.some((stmt) => stmt.t === 'function' || stmt.t === 'class')) this.hoist(stmts, state)
    for (const stmt of stmts) {
      if (!state) return null
      state = this.exec(stmt, state)
    }
    return state
  }

  private exec(stmt: Stmt, state: State): State | null {
    this.engine.tick()
    switch (stmt.t) {
      case 'expr':
        this.eval(stmt.expr, state)
        if (this.noReturnCall === stmt.expr) {
          this.noReturnCall = null
          return null
        }
        return stmt.expr.t === 'call' ? this.refineValidated(state, stmt.expr) : state
      case 'assign':
        this.execAssign(stmt, state)
        return state
      case 'if':
        return this.execIf(stmt, state)
      case 'loop':
        return this.execLoop(stmt, state)
      case 'switch':
        return this.execSwitch(stmt, state)
      case 'return':
        this.execReturn(stmt, state)
        return null
      case 'throw':
        return null
      case 'break':
        this.frames.at(-1)?.breaks.push(state)
        return null
      case 'continue':
        this.frames.at(-1)?.continues.push(state)
        return null
      case 'try':
        return this.execTry(stmt, state)
      case 'block':
        return this.execBlock(stmt.body, state)
      case 'function': {
        // Hoisted already: members given above the declaration's line (`f.helper = g`) stay.
        const hoisted = stmt.fn.name ? state.vars.get(stmt.fn.name) : undefined
        if (stmt.fn.name && !(hoisted?.ref?.t === 'function' && hoisted.ref.fn === stmt.fn)) state.vars.set(stmt.fn.name, val({ ref: { t: 'function', fn: stmt.fn, receiver: null } }))
        return state
      }
      case 'class':
        if (stmt.cls.name) state.vars.set(stmt.cls.name, val({ ref: { t: 'class', cls: stmt.cls } }))
        this.checkSecretFields(stmt.cls, state)
        return state
      case 'export':
        if (!this.fn) this.unit.esExports.set(stmt.exported, stmt.local)
        return state
      case 'import':
        this.bindImport(stmt.decl, state)
        return state
    }
  }

  /**
   * An import inside a function (`def h(): import lxml.etree`) or under a statement at the top
   * level (`try: import x`) binds its names here; top-level imports are found through the file's
   * import index when used.
   */
  private bindImport(decl: Extract<Stmt, { t: 'import' }>['decl'], state: State): void {
    if (!this.fn && this.unit.top().some((stmt) => stmt.t === 'import' && stmt.decl === decl)) return
    for (const binding of decl.bindings) {
      if (binding.local !== '*') state.vars.set(binding.local, this.engine.importValue(this.unit, decl, binding))
    }
  }

  private execAssign(stmt: Extract<Stmt, { t: 'assign' }>, state: State): void {
    let value = stmt.value ? this.eval(stmt.value, state) : CLEAN
    // Two names for one list: a change through either is not seen through the other, so
    // neither keeps its exact positions.
    if (stmt.value && isAccessPath(stmt.value) && exactLength(value) !== undefined) {
      value = inexact(value)
      this.update(stmt.value, state, inexact)
    }
    if (stmt.op !== null && stmt.value) value = this.binaryValue(stmt.op.replace(/=$/, ''), this.readTarget(stmt.target, state), value, stmt.site)
    if (stmt.type) value = this.typed(value, stmt.type)
    this.userStatementSink(stmt.site, value)
    this.assign(stmt.target, value, state, stmt.site, stmt.value)
    if (stmt.target.t === 'name') this.trackView(stmt.target.name, stmt.op === null ? stmt.value : null)
  }

  private execIf(stmt: Extract<Stmt, { t: 'if' }>, state: State): State | null {
    const truth = truthiness(this.eval(stmt.test, state))
    const thenState = truth === false ? null : this.execBlock(stmt.then, this.refine(state.clone(), stmt.test, true))
    const elseState = truth === true ? null : this.execBlock(stmt.else, this.refine(state.clone(), stmt.test, false))
    return joinStates([thenState, elseState])
  }

  private execLoop(stmt: Extract<Stmt, { t: 'loop' }>, start: State): State | null {
    const state = this.execBlock(stmt.init, start)
    if (!state) return null
    const truth = stmt.test ? truthiness(this.eval(stmt.test, state.clone())) : undefined
    if (truth === false && !stmt.runsOnce) return state
    const endless = stmt.test ? truth === true : stmt.each === null
    const iterable = stmt.each ? this.eval(stmt.each.iterable, state) : null
    let entry = state
    const breaks: State[] = []
    // Two passes: data carried around the loop once reaches everything it can in practice.
    for (let pass = 0; pass < 2; pass++) {
      let body: State | null = entry.clone()
      if (stmt.test && !(stmt.runsOnce && pass === 0)) {
        // The test's own assignments hold in the body (`while ((entry = zip.getNextEntry()) != null)`).
        this.eval(stmt.test, body)
        body = this.refine(body, stmt.test, true)
      }
      if (stmt.each && iterable) {
        let element = withStep(readAny(iterable), { site: stmt.site, note: 'element of a loop' })
        if (stmt.each.type) element = this.typed(element, stmt.each.type)
        this.bind(stmt.each.target, element, body)
      }
      const frame: Frame = { breaks: [], continues: [] }
      this.frames.push(frame)
      body = this.execBlock(stmt.body, body)
      this.frames.pop()
      breaks.push(...frame.breaks)
      const end = this.execBlock(stmt.update, joinStates([body, ...frame.continues]))
      const next = joinStates([entry, end])
      if (!next) break
      entry = next
    }
    const normalExit = endless ? null : stmt.test ? this.refine(entry.clone(), stmt.test, false) : entry
    return joinStates([normalExit, ...breaks])
  }

  /**
   * Cases in order: a case whose value surely differs from a constant subject is skipped, one
   * that surely equals it is the last entered directly (the default only runs when none does),
   * and a C-style case without a break runs on into the next one.
   */
  private execSwitch(stmt: Extract<Stmt, { t: 'switch' }>, state: State): State | null {
    const value = this.eval(stmt.value, state)
    const entered = stmt.cases.map(() => false)
    let decided = false
    stmt.cases.forEach((branch, index) => {
      if (decided || branch.test === null) return
      const test = value.constant === undefined ? undefined : this.eval(branch.test, state).constant
      if (value.constant !== undefined && test !== undefined && test !== value.constant) return
      entered[index] = true
      if (value.constant !== undefined && test === value.constant) decided = true
    })
    const fallback = stmt.cases.findIndex((branch) => branch.test === null)
    if (!decided && fallback !== -1) entered[fallback] = true
    const ends: Array<State | null> = []
    let carried: State | null = null
    stmt.cases.forEach((branch, index) => {
      const start = joinStates([entered[index] ? this.caseState(stmt.value, branch.test, state) : null, carried])
      carried = null
      if (!start) return
      const frame: Frame = { breaks: [], continues: [] }
      this.frames.push(frame)
      const end = this.execBlock(branch.body, start)
      this.frames.pop()
      ends.push(...frame.breaks)
      this.frames.at(-1)?.continues.push(...frame.continues)
      if (branch.fallsThrough) carried = end
      else ends.push(end)
    })
    ends.push(carried)
    if (!decided && fallback === -1) ends.push(state)
    return joinStates(ends)
  }

  /** Where a case with a literal label starts, the subject equals it (`case 'load':`). */
  private caseState(subject: Expr, label: Expr | null, state: State): State {
    const start = state.clone()
    const equal = this.syntax.operators.equal[0]
    if (label?.t !== 'literal' || equal === undefined) return start
    return this.refine(start, { t: 'binary', op: equal, left: subject, right: label, site: label.site }, true)
  }

  private execTry(stmt: Extract<Stmt, { t: 'try' }>, state: State): State | null {
    const bodyEnd = this.execBlock(stmt.body, state.clone())
    // An exception may leave the body anywhere: handlers start from before or after it.
    const handlerStart = joinStates([state, bodyEnd]) ?? state
    const ends: Array<State | null> = [bodyEnd]
    for (const handler of stmt.handlers) {
      const start = handlerStart.clone()
      this.bind(handler.binding, CLEAN, start)
      ends.push(this.execBlock(handler.body, start))
    }
    const after = joinStates(ends)
    if (stmt.finally.length === 0) return after
    if (!after) {
      this.execBlock(stmt.finally, handlerStart.clone())
      return null
    }
    return this.execBlock(stmt.finally, after)
  }

  private execReturn(stmt: Extract<Stmt, { t: 'return' }>, state: State): void {
    this.captureReceiver(state)
    if (!stmt.value) return
    let value = this.eval(stmt.value, state)
    this.userStatementSink(stmt.site, value)
    for (const spec of this.returnSinks) {
      // A dict or list returned by a view is serialized as JSON, not rendered as HTML.
      if (stmt.value.t === 'dict' || stmt.value.t === 'list') continue
      const hit: SinkHit = { spec, site: stmt.site, callee: 'return' }
      for (const fact of value.facts) this.reach(fact, hit, null)
    }
    if (this.fn?.name) this.checkSecretName(this.fn.name, value, stmt.site, `returned from ${this.fn.name}()`)
    value = withStep(value, { site: stmt.site, note: `returned from ${this.fn?.name ?? 'function'}()` })
    this.returns = this.returns ? join(this.returns, value) : value
  }

  // --- assignment -------------------------------------------------------------------------

  /** Assignment with a trace step and assignment sinks (`ctx.body = x`, `session[k] = x`). */
  private assign(target: Target, value: Val, state: State, site: Step['site'], valueExpr: Expr | null = null): void {
    if (target.t === 'member' || target.t === 'index') this.checkAssignSinks(target, value, state, site)
    if ((target.t === 'member' || target.t === 'index') && this.catalog.prototypeWrites) this.checkPrototypeWrite(target, value, valueExpr, state, site)
    const name = target.t === 'name' ? target.name : target.t === 'member' ? target.property : target.t === 'index' && target.index.t === 'literal' ? String(target.index.value) : null
    this.checkSecretName(name, value, site, `stored in ${targetText(target)}`)
    const stepped = withStep(value, { site, note: `assigned to ${targetText(target)}` })
    this.bind(target, stepped, state)
  }

  /** Binds a value to a target without recording a step. */
  private bind(target: Target, value: Val, state: State): void {
    switch (target.t) {
      case 'name':
        state.vars.set(target.name, value)
        return
      case 'member':
        this.update(target.object, state, (object) => withField(object, target.property, value))
        return
      case 'index': {
        const key = this.eval(target.index, state).constant
        this.update(target.object, state, (object) => (key === undefined || key === null ? smear(object, value) : withField(object, String(key), value)))
        return
      }
      case 'pattern':
        for (const item of target.items) {
          let part = item.key === null ? value : this.readMember(value, String(item.key), null)
          if (item.fallback) part = join(part, this.eval(item.fallback, state))
          this.bind(item.target, part, state)
        }
        return
      case 'none':
        return
    }
  }

  /** Rewrites the value at an access path (`a`, `a.b`, `a["k"]`, `this.x`). */
  private update(object: Expr, state: State, change: (value: Val) => Val): void {
    if (object.t === 'name') {
      state.vars.set(object.name, change(this.lookup(object.name, state)))
      return
    }
    if (object.t === 'member') {
      this.update(object.object, state, (outer) => withField(outer, object.property, change(this.readMember(outer, object.property, object))))
      return
    }
    if (object.t === 'index') {
      const key = this.eval(object.index, state).constant
      if (key === undefined || key === null) return
      this.update(object.object, state, (outer) => withField(outer, String(key), change(readField(outer, String(key)))))
    }
  }

  private readTarget(target: Target, state: State): Val {
    switch (target.t) {
      case 'name':
        return this.lookup(target.name, state)
      case 'member':
        return this.readMember(this.eval(target.object, state), target.property, null)
      case 'index': {
        const key = this.eval(target.index, state).constant
        const object = this.eval(target.object, state)
        return key === undefined || key === null ? readAny(object) : readField(object, String(key))
      }
      default:
        return CLEAN
    }
  }

  /**
   * `obj[key] = v`, `obj[a][b] = v`: a key from untrusted data may be `__proto__` and write onto a
   * prototype (pollution.ts), unless the object indexed has none (`Object.create(null)`). A
   * primitive constant written under the key (`seen[k] = true`) changes no prototype: assigning
   * one to `__proto__` is ignored, and under `constructor` it is an own property. Nor does a
   * fresh list or object literal (`groups[k] = [item]`): it becomes the prototype of this one
   * object only, with no property the key's owner did not put there.
   */
  private checkPrototypeWrite(target: Extract<Target, { t: 'member' | 'index' }>, value: Val, valueExpr: Expr | null, state: State, site: Step['site']): void {
    const harmless = (value.constant !== undefined && value.constant !== null) || valueExpr?.t === 'list' || valueExpr?.t === 'dict'
    for (const { object, key, written } of prototypeKeys(target)) {
      if (written && harmless) continue
      // `list[list.length] = x` appends: a length is a number, no property name.
      if (key.t === 'member' && key.property === 'length') continue
      const keyValue = this.eval(key, state)
      if (keyValue.constant !== undefined || keyValue.facts.length === 0 || !mayBePrototypeKey(keyValue)) continue
      const objectValue = this.eval(object, state)
      if (objectValue.qname === NULL_PROTOTYPE) continue
      const objectPath = pathOf(object)
      const shared = !written || objectValue.qname === REACHED_BY_KEY || (this.fn !== null && objectPath !== null && descendsByKey(this.fn, objectPath))
      const hit: SinkHit = { spec: prototypeSink(`property name ${clip(key.site.text)} written into ${clip(pathOf(object) ?? 'an object')}`, shared), site, callee: 'return' }
      for (const fact of keyValue.facts) if (countsAtWrite(fact, shared)) this.reach(fact, hit, null)
    }
  }

  /**
   * `Object.assign(target, src)`: every key of an untrusted object is written into the target,
   * `__proto__` included (a JSON body can hold one as an own key). Objects written with constant
   * keys (`{ name: req.body.name }`) carry untrusted values but no untrusted keys.
   */
  private checkObjectMerge(context: CallContext): void {
    const [target, ...sources] = context.args
    if (!target || target.value.qname === NULL_PROTOTYPE) return
    const hit: SinkHit = { spec: prototypeSink(`keys merged by ${context.label}()`, target.value.qname === REACHED_BY_KEY, MERGED_KEYS_EXCEPT), site: context.expr.site, callee: 'return' }
    for (const { arg, value } of sources) {
      if (arg.spread) continue
      for (const fact of value.facts) this.reach(fact, hit, null)
    }
  }

  /**
   * A regular expression run on untrusted text (`re.test(s)`, `s.replace(re, ...)`) whose
   * literal is known and backtracks super-linearly (redos.ts).
   */
  private checkRegexRun(context: CallContext, method: string): void {
    const callee = context.expr.callee
    if (callee.t !== 'member') return
    // A literal receiver (`/a+$/.test(s)`) has no name: the method alone says what runs.
    for (const run of this.catalog.regexRuns.match([...context.names, `regex.${method}`])) {
      const text = run.text === 'receiver' ? context.receiver : (context.args[run.text]?.value ?? null)
      if (!text || text.facts.length === 0) continue
      const regexExpr = run.regex === 'receiver' ? callee.object : context.args[run.regex]?.arg.value
      const regexValue = run.regex === 'receiver' ? context.receiver : context.args[run.regex]?.value
      const literal = typeof regexValue?.constant === 'string' ? regexValue.constant : null
      // A string literal is no regex (`s.split("/a/")`); a regex literal's text starts with `/`.
      if (literal === null || !regexExpr || (regexExpr.t === 'literal' && !regexExpr.site.text.startsWith('/')) || !parseRegexLiteral(literal)) continue
      // recheck judges the pattern only if a source reaches this run (Engine.record)
      const hit: SinkHit = { spec: PENDING_BACKTRACKING, site: context.expr.site, callee: 'return', regexRun: { literal, method } }
      for (const fact of text.facts) this.reach(fact, hit, null)
    }
  }

  private checkAssignSinks(target: Extract<Target, { t: 'member' | 'index' }>, value: Val, state: State, site: Step['site']): void {
    const objectPath = pathOf(target.object)
    const written = target.t === 'member' ? (objectPath === null ? null : `${objectPath}.${target.property}`) : objectPath === null ? null : `${objectPath}[]`
    if (written === null || !this.catalog.sinkAssigns.mayMatch(lastSegment(written))) return
    const object = this.eval(target.object, state)
    const canonical = object.qname ? (target.t === 'member' ? `${object.qname}.${target.property}` : `${object.qname}[]`) : null
    const facts = deepFacts(value)
    const keyFacts = target.t === 'index' ? this.eval(target.index, state).facts : []
    if (facts.length === 0 && keyFacts.length === 0) return
    for (const spec of this.catalog.sinkAssigns.match([canonical, written])) {
      const hit: SinkHit = { spec, site, callee: written }
      for (const fact of spec.assignKey ? [...facts, ...keyFacts] : facts) this.reach(fact, hit, null)
    }
  }

  // --- names and members ------------------------------------------------------------------

  private lookup(name: string, state: State): Val {
    const local = state.vars.get(name)
    if (local) return local
    const closure = this.outer?.(name)
    if (closure) return closure
    if (this.syntax.implicitThis && this.fn?.owner) {
      const member = this.implicitMember(name, state)
      if (member) return member
    }
    if (this.fn?.owner) {
      const nested = this.engine.classInScope(this.fn.owner, name)
      if (nested) return val({ ref: { t: 'class', cls: nested }, qname: name })
    }
    if (this.fn) {
      const helper = wrapperDeclaration(this.unit, this.fn, name)
      if (helper) return val({ ref: { t: 'function', fn: helper, receiver: null } })
      const global = this.engine.moduleState(this.unit).vars.get(name)
      if (global) return global
    }
    const imported = this.unit.importBinding(name)
    if (imported) return this.engine.importValue(this.unit, imported.decl, imported.binding)
    if (this.syntax.packageScope) {
      const shared = this.engine.packageValue(this.unit, name)
      if (shared) return shared
    }
    if (this.syntax.moduleResolution === 'java') {
      const cls = this.engine.classByName(this.unit, name)
      if (cls) return val({ ref: { t: 'class', cls }, qname: name })
    }
    return val({ qname: name })
  }

  /** Java: a bare name that is a field or method of the enclosing class means `this.name`. */
  private implicitMember(name: string, state: State): Val | null {
    const owner = this.fn?.owner
    if (!owner) return null
    const field = this.engine.findField(owner, name)
    const method = field ? null : this.engine.findMethod(owner, name)
    if (!field && !method) return this.enclosingMember(owner, name)
    const receiver = state.vars.get('this') ?? val({ ref: { t: 'instance', cls: owner } })
    return this.readMember(receiver, name, null)
  }

  /** Java: a bare name in a nested class may be a method or field of an enclosing class. */
  private enclosingMember(owner: ClassDef, name: string): Val | null {
    let current = owner.outer
    for (let depth = 0; current && depth < 8; depth++, current = current.outer) {
      if (this.engine.findMethod(current, name) || this.engine.findField(current, name)) return this.readMember(val({ ref: { t: 'instance', cls: current } }), name, null)
    }
    return null
  }

  /**
   * Reads `object.property`: a source access path, a module export, a class's static member, an
   * instance's method (bound) or field, or a field of a plain value.
   */
  private readMember(object: Val, property: string, expr: Extract<Expr, { t: 'member' }> | null): Val {
    const qname = object.qname ? `${object.qname}.${property}` : null
    let result = this.memberValue(object, property, qname)
    // A known field was written or checked here before; it already holds any source data.
    if (expr && this.catalog.sourceAccess.mayMatch(property) && !object.fields?.has(property)) {
      const written = pathOf(expr)
      for (const source of this.catalog.sourceAccess.match([qname, written])) {
        result = join(result, this.sourceValue(source, expr.site, written ?? property))
      }
    }
    return result
  }

  private memberValue(object: Val, property: string, qname: string | null): Val {
    const ref = object.ref
    if (ref?.t === 'module') {
      const exported = this.engine.exported(ref.path, property)
      if (exported) return exported
      // `import a.b` then `a.b`: a submodule of a project package
      const submodule = this.syntax.moduleResolution === 'python' && qname ? this.engine.program.resolveModule(this.unit, qname) : null
      if (submodule) return val({ ref: { t: 'module', path: submodule }, qname })
      return val({ qname })
    }
    const cls = ref?.t === 'class' || ref?.t === 'instance' ? ref.cls : ref?.t === 'type' ? this.resolveType(ref.name, ref.path) : null
    if (cls) {
      // Class names are capitalized in every language here: other members skip the search.
      const nested = /^[A-Z]/.test(property) ? this.engine.nestedClass(cls, property) : null
      if (nested) return val({ ref: { t: 'class', cls: nested }, qname })
      const method = this.engine.findMethod(cls, property)
      if (method) return val({ ref: { t: 'function', fn: method, receiver: ref?.t === 'class' ? null : object }, qname })
      const known = object.fields?.get(property)
      if (known) return known
      const field = this.engine.findField(cls, property)
      // Static fields initialized with a literal are constants (`static final boolean DEBUG = false`);
      // in Python and JavaScript a class attribute is only the default of an instance's own
      // (`formula: str = "..."` on a pydantic model), so data the instance carries wins.
      const perInstance = this.syntax.moduleResolution !== 'java' && object.facts.length > 0
      if (field?.isStatic && field.init?.t === 'literal' && !perInstance) return constantVal(field.init.value)
      let value = readField(object, property)
      // Spring injects `@Value("${key}")` fields from the repository's configuration.
      const injected = field && !value.choices ? springFieldValue(this.engine.program, cls.site.text, property) : null
      if (injected) value = { ...value, choices: injected }
      if (field?.type) return this.typed(value, field.type, this.engine.fieldOwner(cls, property)?.path)
      return qname ? { ...value, qname: value.qname ?? qname } : value
    }
    const qualified = this.qualifiedJavaClass(object, property)
    if (qualified) return val({ ref: { t: 'class', cls: qualified }, qname })
    // Go: a method declared for the value's type in its package (`s.render(x)` with `s *Server`)
    const method = this.syntax.packageScope && ref?.t === 'type' ? this.engine.packageMethod(this.engine.program.unit(ref.path) ?? this.unit, ref.name, property) : null
    if (method) return val({ ref: { t: 'function', fn: method, receiver: object }, qname })
    const value = readField(object, property)
    return qname && !value.qname ? { ...value, qname } : value
  }

  /** Java: `com.acme.Db` written out in full, without an import, names that project class. */
  private qualifiedJavaClass(object: Val, property: string): ClassDef | null {
    if (this.syntax.moduleResolution !== 'java' || object.ref || object.facts.length > 0 || object.fields) return null
    if (!object.qname || !/^[A-Z]/.test(property) || !/^[a-z_$][\w$]*(?:\.[a-z_$][\w$]*)*$/.test(object.qname)) return null
    return this.engine.qualifiedClass(this.unit, `${object.qname}.${property}`)
  }

  private resolveType(name: string, path: string): ReturnType<Engine['classByName']> {
    const unit = this.engine.program.unit(path)
    return unit ? this.engine.classByName(unit, name) : null
  }

  private sourceValue(source: SourceSpec, site: Step['site'], written: string): Val {
    const info = SOURCE_KIND_INFO[source.kind]
    return val({ facts: [sourceFact(source.kind, info.scope, source.label ?? written, site, source.structured)] })
  }

  // --- expressions ------------------------------------------------------------------------

  eval(expr: Expr, state: State): Val {
    const value = this.evalExpr(expr, state)
    const overlay = this.engine.overlay
    return overlay ? this.overlaid(overlay, expr, value, state) : value
  }

  private evalExpr(expr: Expr, state: State): Val {
    switch (expr.t) {
      case 'name':
        return passwordRead(this.lookup(expr.name, state), expr.name, expr.site)
      case 'literal':
        return constantVal(expr.value)
      case 'template': {
        const parts = expr.parts.map((part) => this.eval(part, state))
        let facts: readonly Fact[] = []
        for (const part of parts) facts = mergeFacts(facts, deepFacts(part))
        const constant = parts.every((part) => part.constant !== undefined) ? parts.map((part) => String(part.constant)).join('') : undefined
        const choices = constant === undefined ? concatChoices(parts) : undefined
        return { ...CLEAN, facts, constant, prefix: templatePrefix(parts), ...(choices ? { choices } : {}) }
      }
      case 'member':
        return passwordRead(this.readMember(this.eval(expr.object, state), expr.property, expr), expr.property, expr.site)
      case 'index': {
        const object = this.eval(expr.object, state)
        const keyValue = this.eval(expr.index, state)
        const key = keyValue.constant
        // `"ABC"[1]`: one character of a known string
        if (typeof object.constant === 'string' && typeof key === 'number' && Number.isInteger(key) && key >= 0 && key < object.constant.length) return constantVal(object.constant.charAt(key))
        if (key === undefined || key === null) return this.catalog.prototypeWrites ? reachedByKey(readAny(object), keyValue) : readAny(object)
        const read = this.readMember(object, positionKey(object, key), null)
        return typeof key === 'string' ? passwordRead(read, key, expr.site) : read
      }
      case 'call':
        return this.evalCall(expr, state)
      case 'binary':
        return this.evalBinary(expr, state)
      case 'unary': {
        const operand = this.eval(expr.operand, state)
        if (this.syntax.operators.not.includes(expr.op)) {
          const truth = truthiness(operand)
          return truth === undefined ? CLEAN : constantVal(!truth)
        }
        if (this.syntax.operators.passThrough?.includes(expr.op)) return operand
        // Arithmetic negation, typeof, bitwise not: numbers and type names, not the operand's text.
        if (operand.constant !== undefined && typeof operand.constant === 'number' && expr.op === '-') return constantVal(-operand.constant)
        return CLEAN
      }
      case 'conditional': {
        const truth = truthiness(this.eval(expr.test, state))
        if (truth === true) return this.eval(expr.then, this.refine(state.clone(), expr.test, true))
        if (truth === false) return this.eval(expr.else, this.refine(state.clone(), expr.test, false))
        return join(this.eval(expr.then, this.refine(state.clone(), expr.test, true)), this.eval(expr.else, this.refine(state.clone(), expr.test, false)))
      }
      case 'list':
        return listOf(expr.elements.map((element) => this.eval(element, state)))
      case 'dict':
        return this.evalDict(expr, state)
      case 'function':
        return val({ ref: { t: 'function', fn: expr.fn, receiver: null } })
      case 'assign': {
        let value = this.eval(expr.value, state)
        if (expr.op !== null) value = this.binaryValue(expr.op.replace(/=$/, ''), this.readTarget(expr.target, state), value, expr.site)
        this.assign(expr.target, value, state, expr.site, expr.value)
        return value
      }
      case 'other': {
        let facts: readonly Fact[] = []
        for (const part of expr.parts) facts = mergeFacts(facts, deepFacts(this.eval(part, state)))
        return facts.length === 0 ? CLEAN : { ...CLEAN, facts }
      }
    }
  }

  private evalDict(expr: Extract<Expr, { t: 'dict' }>, state: State): Val {
    let result: Val = val({ fields: new Map() })
    for (const entry of expr.entries) {
      const value = this.eval(entry.value, state)
      if (entry.spread) {
        if (value.fields) for (const [key, field] of value.fields) result = withField(result, key, field)
        result = smear(result, { ...value, fields: null })
      } else if (entry.key !== null) {
        this.checkSecretName(entry.key, value, entry.value.site, `stored under the key ${entry.key}`)
        result = withField(result, entry.key, value)
      } else {
        const key = entry.computedKey ? this.eval(entry.computedKey, state).constant : undefined
        result = key === undefined || key === null ? smear(result, value) : withField(result, String(key), value)
      }
    }
    // `{ __proto__: null }` is an object literal without a prototype, as `Object.create(null)` is.
    if (this.catalog.prototypeWrites && expr.entries.some((entry) => entry.key === '__proto__' && entry.value.t === 'literal' && entry.value.value === null)) result = { ...result, qname: NULL_PROTOTYPE }
    return result
  }

  private evalBinary(expr: Extract<Expr, { t: 'binary' }>, state: State): Val {
    const ops = this.syntax.operators
    if (ops.and.includes(expr.op) || ops.or.includes(expr.op)) {
      const left = this.eval(expr.left, state)
      const truth = truthiness(left)
      const isAnd = ops.and.includes(expr.op)
      if (truth !== undefined) return (isAnd ? truth : !truth) ? this.eval(expr.right, this.refine(state.clone(), expr.left, isAnd)) : left
      return join(left, this.eval(expr.right, this.refine(state.clone(), expr.left, isAnd)))
    }
    const left = this.eval(expr.left, state)
    const right = this.eval(expr.right, state)
    return this.binaryValue(expr.op, left, this.escapedByTemplate(expr, left, right), expr.site)
  }

  /** `Markup("<b>%s</b>") % x`: a template that escapes what is formatted into it. */
  private escapedByTemplate(expr: Extract<Expr, { t: 'binary' }>, left: Val, right: Val): Val {
    if (!this.syntax.operators.format?.includes(expr.op) || !left.qname?.endsWith('()')) return right
    const name = left.qname.slice(0, -2)
    if (!this.catalog.escapingTemplates.mayMatch(lastSegment(name))) return right
    const template = this.catalog.escapingTemplates.match([name])[0]
    return template ? cleaned(right, template.mask, { site: expr.site, note: template.note }, false) : right
  }

  /** The value of `left op right`: folded when both are known; comparisons carry no data. */
  private binaryValue(op: string, left: Val, right: Val, site: Step['site']): Val {
    const ops = this.syntax.operators
    const folded = foldBinary(op, left.constant, right.constant, ops.equal, ops.notEqual)
    if (ops.clean.includes(op) || ops.equal.includes(op) || ops.notEqual.includes(op) || ops.membership?.includes(op) || ops.negatedMembership?.includes(op)) {
      if (folded === undefined && ops.clean.includes(op) && !COMPARISONS.has(op)) return predictable(left, right)
      return folded === undefined ? CLEAN : constantVal(folded)
    }
    if (ops.coalesce?.includes(op)) {
      if (left.constant !== undefined) return left.constant === null ? right : left
      return join(left, right)
    }
    const facts = mergeFacts(deepFacts(left), deepFacts(right))
    let prefix = concatPrefix(left, right)
    if (ops.format?.includes(op)) prefix = typeof left.constant === 'string' ? left.constant.split('%')[0] || null : left.prefix
    const choices = folded === undefined && op === '+' ? concatChoices([left, right]) : undefined
    const qname = ops.pathJoin?.includes(op) ? left.qname : null
    const result: Val = { ...CLEAN, facts, constant: folded, prefix, qname, ...(choices ? { choices } : {}) }
    // `i + 1` is a number, or a string ending in a digit: never a property name such as `__proto__`.
    if (op === '+' && this.catalog.prototypeWrites && (typeof left.constant === 'number' || typeof right.constant === 'number')) return cleaned(result, sinkKindBit('prototype'), { site, note: 'a number added' })
    return result
  }

  // --- calls ------------------------------------------------------------------------------

  private evalCall(expr: Extract<Expr, { t: 'call' }>, state: State): Val {
    const callee = expr.callee
    let receiver: Val | null = null
    let calleeValue: Val
    if (callee.t === 'member') {
      receiver = this.eval(callee.object, state)
      calleeValue = this.readMember(receiver, callee.property, callee)
    } else calleeValue = this.eval(callee, state)
    const args = expr.args.map((arg) => ({ arg, value: this.eval(arg.value, state) }))
    const written = pathOf(callee)
    const names = [calleeValue.qname, written]
    const context: CallContext = { expr, args, receiver, names, label: written ?? calleeValue.qname ?? 'call', unit: this.unit, typeUnit: this.typeUnitOfLibraryCall(receiver) }
    const loaded = this.loadModule(context)
    if (loaded) return loaded
    const wrapped = this.wrappedFunction(context)
    if (wrapped) return wrapped
    this.checkSecretArguments(context)
    const catalog = this.catalog
    // The name the value is bound to, not the one written: `run(cmd)` after `const run = cp.exec` is an `exec` call.
    const last = lastSegment(calleeValue.qname ?? written ?? '')
    const ref = calleeValue.ref
    // Project code is analyzed, not matched by name: a wrapper called `query()` is followed
    // to the library call inside it. Names still count for sanitizers (`escapeHtml()`).
    if (ref?.t === 'function' || ref?.t === 'class') {
      const sanitized = this.sanitizerResult(context, last)
      if (sanitized) return sanitized
      if (ref.t === 'class') return this.construct(ref.cls, context)
      if (catalog.sinkCalls.mayMatch(last)) this.checkWrapperSinks(ref.fn, context)
      return this.callFunction(ref.fn, ref.receiver ?? receiver, context, state)
    }
    checkAlgorithm(this.engine, context, (arg) => this.foldedEval(arg, state))
    const folded = this.foldedCall(context) ?? this.collectionFactory(context)
    if (folded) return folded
    if (callee.t === 'member' && catalog.regexRuns.mayMatch(callee.property)) this.checkRegexRun(context, callee.property)
    if (catalog.prototypeWrites) {
      if (catalog.objectMerges.mayMatch(last) && catalog.objectMerges.match(names).length > 0) this.checkObjectMerge(context)
      if (catalog.nullPrototypes.mayMatch(last) && catalog.nullPrototypes.match(names).length > 0 && context.args[0]?.value.constant === null) return val({ qname: NULL_PROTOTYPE })
    }
    const consumed = catalog.sinkCalls.mayMatch(last) && this.checkCallSinks(context)
    if (catalog.noReturn.mayMatch(last) && catalog.noReturn.match(names).length > 0) this.noReturnCall = expr
    this.noteView(context, last, state)
    this.validatedByParse(context, last, state)
    let result = this.catalogResult(context, last, state) ?? this.unknownCall(context, calleeValue, state, consumed)
    // `keys.filter(isValidKey)` keeps the elements the predicate lets through, guarded as it guards.
    if (callee.t === 'member' && callee.property === 'filter' && receiver && args[0]) result = this.elementsWhere(receiver, args[0].arg.value, true, state) ?? result
    // `new Set(["__proto__", ...])` keeps its elements, for deny lists checked with `has` (pollution.ts).
    if (catalog.prototypeWrites && expr.isNew && written === 'Set' && args[0]?.value.fields) result = { ...result, fields: args[0].value.fields }
    const configured = catalog.configurations.mayMatch(last) ? this.configure(context, state, result) : result
    const read = configRead(this.engine.program, context, configured) ?? configured
    return passwordCallResult(context, read, (arg) => this.foldedEval(arg, state))
  }

  /**
   * The other file whose declaration typed the receiver (`Db.TPL`, `this.db.tpl`: a field declared
   * in Db.java) when that type is not a project class: that file's imports say which library it is.
   */
  private typeUnitOfLibraryCall(receiver: Val | null): FileUnit | null {
    const ref = receiver?.ref
    if (ref?.t !== 'type' || ref.path === this.unit.path || this.resolveType(ref.name, ref.path)) return null
    return this.engine.program.unit(ref.path)
  }

  /** A string method or conversion of known constants (`"ABC".charAt(1)`, `String.valueOf(3)`): its constant. */
  private foldedCall(context: CallContext): Val | null {
    const callee = context.expr.callee
    const args = context.args.map(({ arg, value }) => (arg.keyword === null && !arg.spread ? value.constant : undefined))
    if (callee.t === 'member' && typeof context.receiver?.constant === 'string') {
      const folded = foldStringMethod(callee.property, context.receiver.constant, args)
      return folded === undefined ? null : constantVal(folded)
    }
    const written = pathOf(callee)
    // `new RegExp("a+$", "i")` of constants folds to its literal's text, as `/a+$/i` does.
    if (written === 'RegExp' && typeof args[0] === 'string' && args.length <= 2 && (args[1] === undefined || typeof args[1] === 'string')) {
      const literal = regexLiteralOf(args[0], args[1] as string | undefined)
      if (literal !== null) return constantVal(literal)
    }
    const [only] = args
    if (args.length !== 1 || only === undefined || written === null) return null
    if (written === 'len' && typeof only === 'string') return constantVal(only.length)
    if (TO_STRING.has(written)) return constantVal(foldToString(only, this.unit.spec.name === 'python'))
    return null
  }

  /**
   * Lists and maps with known positions and keys (collections.ts): methods that move elements
   * (`add(i, x)`, `remove(i)`, `pop()`, `insert`, `shift`, `splice`) on a list of known length,
   * removals and copies of map keys; null leaves the call to the catalog's reads and writes.
   */
  private collectionCall(context: CallContext, method: string, state: State): Val | null {
    const receiver = context.receiver
    const callee = context.expr.callee
    if (!receiver || callee.t !== 'member' || context.args.some(({ arg }) => arg.spread || arg.keyword !== null)) return null
    const values = context.args.map(({ value }) => value)
    const [first, second] = values
    const length = exactLength(receiver)
    const python = this.unit.spec.name === 'python'
    const step = { site: context.expr.site, note: `stored in ${pathOf(callee.object) ?? 'a collection'}` }
    const store = (next: Val) => this.update(callee.object, state, () => next)
    if (length !== undefined) {
      switch (method) {
        case 'add':
        case 'append':
        case 'push':
        case 'offer':
        case 'addLast':
          if (method === 'add' && values.length === 2 && first && second) {
            store(listInsert(receiver, first.constant, withStep(second, step)))
            return CLEAN
          }
          if (values.length === 0 || (method !== 'push' && values.length > 1)) return null
          store(listAppend(receiver, values.map((value) => withStep(value, step))))
          return method === 'push' ? constantVal(length + values.length) : CLEAN
        case 'insert':
          if (!first || !second || values.length !== 2) return null
          store(listInsert(receiver, first.constant, withStep(second, step)))
          return CLEAN
        case 'unshift':
        case 'addFirst':
        case 'offerFirst':
          if (values.length !== 1 || !first) return null
          store(listInsert(receiver, 0, withStep(first, step)))
          return CLEAN
        case 'set': {
          if (values.length !== 2 || !first || !second) return null
          const { list, old } = listSet(receiver, first.constant, withStep(second, step))
          store(list)
          return old
        }
        case 'addAll':
        case 'extend':
          if (values.length !== 1 || !first) return null
          store(listExtend(receiver, withStep(first, step)))
          return CLEAN
        case 'concat':
          return values.reduce((acc, value) => listExtend(acc, value), receiver)
        case 'remove':
          if (values.length !== 1 || !first) return null
          if (!python && typeof first.constant === 'number') {
            const { list, removed } = listRemoveAt(receiver, first.constant)
            store(list)
            return removed
          }
          store(listRemoveValue(receiver, first.constant))
          return CLEAN
        case 'pop':
        case 'shift':
        case 'poll':
        case 'pollFirst':
        case 'removeFirst':
        case 'pollLast':
        case 'removeLast': {
          if (values.length > 1) return null
          const fromEnd = method === 'pop' || method === 'pollLast' || method === 'removeLast'
          const index = first ? first.constant : fromEnd ? -1 : 0
          const { list, removed } = listRemoveAt(receiver, index)
          store(list)
          return removed
        }
        case 'splice': {
          if (!first) return null
          const count = values.length > 1 ? (second?.constant ?? -1) : undefined
          const { list, removed } = listSplice(receiver, first.constant, count, values.slice(2).map((value) => withStep(value, step)))
          store(list)
          return removed
        }
        default:
          return null
      }
    }
    const shifted = ['shift', 'removeFirst', 'pollFirst', 'poll'].includes(method) && values.length === 0 ? listShiftKnownFirst(receiver) : null
    if (shifted) {
      store(shifted.list)
      return shifted.removed
    }
    // A map (or a list whose length is unknown): removing a constant key clears it; removing by
    // position or an unknown key leaves a bag.
    if (['remove', 'pop', 'delete', 'shift', 'splice', 'insert', 'unshift', 'removeFirst', 'removeLast', 'poll'].includes(method) && receiver.fields) {
      const key = first?.constant
      if ((method === 'remove' || method === 'pop' || method === 'delete') && values.length >= 1 && typeof key === 'string') {
        const removed = readField(receiver, key)
        store(withField(receiver, key, values.length > 1 && second ? second : CLEAN))
        return method === 'delete' ? CLEAN : values.length > 1 && second ? join(removed, second) : removed
      }
      store(bag(receiver))
      return null
    }
    if ((method === 'putAll' || (python && method === 'update')) && values.length === 1 && first?.fields) {
      let updated = receiver
      for (const [key, field] of first.fields) updated = withField(updated, key, withStep(field, step))
      store(smear(updated, { ...first, fields: null }))
      return CLEAN
    }
    return null
  }

  /**
   * A library object that stores what it is given (`cfg.set("s", "k", v)`, `ctx.setAttribute("k",
   * v)`): the value goes into the receiver under its constant leading arguments, or anywhere in
   * it when they are not constant, so a later getter with the same key returns it.
   */
  private storeInReceiver(context: CallContext, state: State): void {
    const callee = context.expr.callee
    if (callee.t !== 'member' || !context.receiver || !STORE_METHODS.has(callee.property) || !isAccessPath(callee.object)) return
    if (context.args.length === 0 || context.args.some(({ arg }) => arg.spread || arg.keyword !== null)) return
    const written = withStep((context.args.at(-1) as { value: Val }).value, { site: context.expr.site, note: `stored in ${pathOf(callee.object) ?? 'an object'}` })
    const key = storedKey(context.args.slice(0, -1).map(({ value }) => value.constant))
    if (key === null) {
      if (isTainted(written)) this.update(callee.object, state, (object) => smear(object, written))
      return
    }
    this.update(callee.object, state, (object) => withField(object, key, written))
  }

  /** `cfg.get("s", "k")` on an object something was stored in by key: that key only. */
  private storedRead(context: CallContext, method: string): Val | null {
    const receiver = context.receiver
    if (!receiver?.fields || !GET_METHODS.has(method) || context.args.length === 0) return null
    const key = storedKey(context.args.map(({ value }) => value.constant))
    if (key === null || ![...receiver.fields.keys()].some((known) => known.startsWith(STORED))) return null
    const stored = receiver.fields.get(key)
    if (stored) return stored
    // a key written as a collection's (`map.put("k", v)`) is read as one
    const [only] = context.args
    if (context.args.length === 1 && only && receiver.fields.has(String(only.value.constant))) return null
    return readField(receiver, key)
  }

  /** `List.of(a, b)`, `Arrays.asList(a, b)`, `new ArrayList<>()`, `Map.of("k", v)`: a collection of known contents. */
  private collectionFactory(context: CallContext): Val | null {
    const written = pathOf(context.expr.callee)
    if (written === null || context.args.some(({ arg }) => arg.spread || arg.keyword !== null)) return null
    const values = context.args.map(({ value }) => value)
    if (LIST_FACTORIES.has(written)) return listOf(values)
    if (context.expr.isNew && LIST_CLASSES.has(written)) {
      const [first] = values
      if (!first || typeof first.constant === 'number') return { ...listOf([]), qname: written }
      return exactLength(first) === undefined ? null : { ...listOf([]), fields: first.fields, qname: written }
    }
    if (written === 'Map.of' && values.length % 2 === 0) {
      let result: Val = val({ fields: new Map() })
      for (let index = 0; index < values.length; index += 2) {
        const key = values[index]?.constant
        const value = values[index + 1] ?? CLEAN
        result = key === undefined || key === null ? smear(result, value) : withField(result, String(key), value)
      }
      return result
    }
    return null
  }

  /** A configuration call: marks its receiver (from here on) or its result (ConfigurationSpec). */
  private configure(context: CallContext, state: State, result: Val): Val {
    let marked = result
    for (const configuration of this.catalog.configurations.match(context.names)) {
      if (!conditionsHold(configuration.when ?? [], context)) continue
      const mark = constantVal(true)
      const callee = context.expr.callee
      if (configuration.on === 'receiver' && callee.t === 'member') this.update(callee.object, state, (object) => withField(object, markField(configuration.marks), mark))
      marked = withField(marked, markField(configuration.marks), mark)
    }
    return marked
  }

  /** `util.promisify(fn)`: the function itself, so a call of the result is matched and followed as a call of `fn`. */
  private wrappedFunction(context: CallContext): Val | null {
    const first = context.args[0]
    if (!first || !this.catalog.functionWrappers.mayMatch(lastSegment(context.names[0] ?? context.names[1] ?? ''))) return null
    return this.catalog.functionWrappers.match(context.names).length > 0 ? first.value : null
  }

  /** `require('x')`: the module (or its exports) as a value. */
  private loadModule(context: CallContext): Val | null {
    const callee = context.expr.callee
    if (callee.t !== 'name' || !(this.syntax.requireFunctions ?? []).includes(callee.name)) return null
    const first = context.args[0]?.arg.value
    if (first?.t !== 'literal' || typeof first.value !== 'string') return null
    return this.engine.requireValue(this.unit, first.value)
  }

  /** Sources, sanitizers, markers, clean calls and collection methods named by the catalog. */
  private catalogResult(context: CallContext, last: string, state: State): Val | null {
    const catalog = this.catalog
    const { names, expr } = context
    if (catalog.sourceCalls.mayMatch(last)) {
      const sources = catalog.sourceCalls.match(names)
      // The result is the source's data only: `open(path)` gives file contents, not the path.
      if (sources.length > 0) {
        const value = sources.map((source) => this.sourceValue(source, expr.site, `${context.label}()`)).reduce(join)
        const filled = sources.find((source) => source.fills !== undefined)?.fills
        const target = filled === undefined ? undefined : expr.args[filled]?.value
        // `random.nextBytes(buffer)`: the buffer holds the generator's output from now on.
        if (target && isAccessPath(target)) this.update(target, state, (old) => join(old, value))
        return value
      }
    }
    const sanitized = this.sanitizerResult(context, last)
    if (sanitized) return sanitized
    if (catalog.markers.mayMatch(last)) {
      const marker = catalog.markers.match(names)[0]
      if (marker) return normalized(this.propagate(context, null), { site: expr.site, note: `${context.label}() (${marker.note})` })
    }
    if (catalog.cleanCalls.mayMatch(last) && catalog.cleanCalls.match(names).length > 0) return CLEAN
    if (context.receiver && expr.callee.t === 'member') {
      const collection = this.collectionCall(context, expr.callee.property, state) ?? this.storedRead(context, expr.callee.property)
      if (collection) return collection
      const lookup = tableLookup(context)
      if (lookup) return lookup
      // A formatter builds its result from every argument (`Paths.get(BASE, name)`): not a keyed read.
      if (catalog.collectionReads.mayMatch(last) && catalog.formatters.match(names).length === 0) {
        const read = catalog.collectionReads.match(names)[0]
        const key = read ? context.args[read.key]?.value.constant : undefined
        if (read && key !== undefined && key !== null) return readField(context.receiver, positionKey(context.receiver, key))
      }
      if (catalog.collectionWrites.mayMatch(last)) {
        const write = catalog.collectionWrites.match(names)[0]
        if (write) return this.collectionWrite(context, write, state)
      }
    }
    return null
  }

  private sanitizerResult(context: CallContext, last: string): Val | null {
    if (!this.catalog.sanitizers.mayMatch(last)) return null
    const sanitizers = this.catalog.sanitizers.match(context.names).filter((entry) => conditionsHold(entry.spec.when ?? [], context))
    if (sanitizers.length === 0) return null
    let result = this.sanitizerInput(context, sanitizers[0]?.spec.arg)
    for (const { spec, mask } of sanitizers) result = cleaned(result, mask, { site: context.expr.site, note: `${context.label}() (${spec.note})` })
    return result
  }

  /** `list.append(x)`, `map.put("k", x)`, `sb.append(x)`: the receiver now holds the data. */
  private collectionWrite(context: CallContext, write: { key?: number; value?: number }, state: State): Val {
    const callee = context.expr.callee
    if (callee.t !== 'member' || !context.receiver) return CLEAN
    const key = write.key === undefined ? undefined : context.args[write.key]?.value.constant
    const written = write.value === undefined ? context.args.reduce((acc, arg) => join(acc, arg.value), CLEAN) : (context.args[write.value]?.value ?? CLEAN)
    if (typeof key === 'string') this.checkSecretName(key, written, context.expr.site, `stored under the key ${key}`)
    const stepped = withStep(written, { site: context.expr.site, note: `stored in ${pathOf(callee.object) ?? 'a collection'}` })
    this.update(callee.object, state, (object) => (key === undefined || key === null ? smear(object, stepped) : withField(object, String(key), stepped)))
    // Builders return themselves (`sb.append(a).append(b)`): the result holds everything.
    return smear(context.receiver, stepped)
  }

  /** What a sanitizer's result carries: one argument, or everything that went in. */
  private sanitizerInput(context: CallContext, arg: number | undefined): Val {
    if (arg !== undefined) return readAny(context.args[arg]?.value ?? CLEAN)
    return this.propagate(context, null)
  }

  /** Default for library calls: the result carries the receiver's and the arguments' data. */
  private propagate(context: CallContext, calleeValue: Val | null): Val {
    let facts: readonly Fact[] = context.receiver ? deepFacts(context.receiver) : []
    if (calleeValue) facts = mergeFacts(facts, calleeValue.facts)
    for (const { arg, value } of context.args) {
      if (arg.value.t === 'function') continue
      facts = mergeFacts(facts, deepFacts(value))
    }
    let result: Val = { ...CLEAN, facts, qname: `${context.names[0] ?? context.names[1] ?? 'call'}()`, prefix: this.formattedPrefix(context) }
    // What a configured object makes is configured alike (`factory.newDocumentBuilder()`).
    for (const mark of CONFIG_MARKS) if (isMarked(context.receiver, mark)) result = withField(result, markField(mark), constantVal(true))
    return result
  }

  /** The constant start of a formatted string (`"https://host/{}".format(x)`). */
  private formattedPrefix(context: CallContext): string | null {
    const last = lastSegment(context.names[1] ?? context.names[0] ?? '')
    if (!this.catalog.formatters.mayMatch(last)) return null
    const formatter = this.catalog.formatters.match(context.names)[0]
    if (!formatter) return null
    const template = formatter.template === 'receiver' ? context.receiver : (context.args[formatter.template]?.value ?? null)
    if (typeof template?.constant !== 'string') return template?.prefix ?? null
    return template.constant.split(formatter.placeholder)[0] || null
  }

  /**
   * A library call. Its result carries the receiver's and arguments' data, except for a sink,
   * which consumes its input (a query's rows, a response object, a process's status): the
   * finding is at the sink, not at every later use of what it returned.
   */
  private unknownCall(context: CallContext, calleeValue: Val, state: State, consumed: boolean): Val {
    this.escapeLists(context, state)
    this.storeInReceiver(context, state)
    const propagated = this.propagate(context, calleeValue)
    let result = consumed ? { ...propagated, facts: [] } : propagated
    // Callbacks given to library calls (map, then, forEach...) see the receiver's data;
    // error handlers and event listeners do not.
    const opaque = consumed || this.catalog.opaqueCallbacks.match(context.names).length > 0
    for (const { arg, value } of context.args) {
      if (arg.value.t !== 'function' || value.ref?.t !== 'function') continue
      const input = context.receiver && !opaque ? readAny(context.receiver) : CLEAN
      const returned = this.runInline(value.ref.fn, null, (index) => (index < 2 ? input : CLEAN), state)
      // `list.map(fn)` holds what fn returned, not the elements it was given (escaped words).
      if (returned && !consumed && this.catalog.mappers.match(context.names).length > 0) result = { ...result, facts: deepFacts(returned) }
      else if (returned) result = join(result, returned)
    }
    return result
  }

  /**
   * A list of known positions handed to a library call (`Collections.reverse(l)`, `l.sort()`)
   * may come back reordered: from here on it is a bag.
   */
  private escapeLists(context: CallContext, state: State): void {
    const callee = context.expr.callee
    const handed = context.args.map(({ arg, value }) => ({ expr: arg.value, value }))
    if (callee.t === 'member' && context.receiver) handed.push({ expr: callee.object, value: context.receiver })
    for (const { expr, value } of handed) {
      if (exactLength(value) !== undefined && isAccessPath(expr)) this.update(expr, state, bag)
    }
  }

  /** Analyzes a function in place with the current variables visible (closures). */
  private runInline(fn: FunctionDef, receiver: Val | null, argument: (index: number) => Val, state: State): Val | null {
    if (this.inlineDepth >= ENGINE_LIMITS.inlineDepth) return null
    this.engine.inlined.add(fn.id)
    const snapshot = state.clone()
    const lookup: Lookup = (name) => snapshot.vars.get(name) ?? this.outer?.(name)
    const args = new Map<number, Val>()
    fn.params.forEach((_, index) => args.set(index, argument(index)))
    const run = new FunctionRun(this.engine, this.engine.unitOf(fn.path), fn, lookup, this.inlineDepth + 1)
    const summary = run.runWith(receiver, args)
    // Parameter data of the enclosing function that reached sinks inside stays ours to report.
    for (const sink of summary.sinks) this.keepParamSink(sink)
    return summary.returns
  }

  /** Maps call arguments to the callee's parameter indexes. */
  private argumentMap(fn: FunctionDef, context: CallContext, hasReceiver: boolean): Map<number, Val> {
    const params = fn.params
    const offset = hasReceiver && this.syntaxOf(fn).explicitSelf && fn.owner && !fn.isStatic ? 1 : 0
    const result = new Map<number, Val>()
    const put = (index: number, value: Val) => result.set(index, result.has(index) ? join(result.get(index) as Val, value) : value)
    let position = offset
    for (const { arg, value } of context.args) {
      if (arg.keyword !== null) {
        const index = params.findIndex((param) => param.name === arg.keyword)
        const rest = params.findIndex((param) => param.rest === 'dict')
        if (index !== -1) put(index, value)
        else if (rest !== -1) put(rest, value)
        continue
      }
      if (arg.spread) {
        for (let index = position; index < params.length; index++) put(index, readAny(value))
        continue
      }
      const restIndex = params.findIndex((param, index) => index <= position && param.rest === 'list')
      put(restIndex !== -1 ? restIndex : position, value)
      if (restIndex === -1) position++
    }
    return result
  }

  private syntaxOf(fn: FunctionDef) {
    return this.engine.unitOf(fn.path).spec.syntax
  }

  /**
   * An expression evaluated again with project calls run on their actual arguments instead of
   * their summaries, so that constants fold through wrappers (`Config.get("hash", "SHA-256")`
   * reading a properties file): used where a constant is needed, the algorithm of a hash.
   */
  private foldedEval(expr: Expr, state: State): Val {
    this.folding++
    try {
      return this.eval(expr, state.clone())
    } finally {
      this.folding--
    }
  }

  /** >0 while folding (foldedEval); the depth of wrappers followed with actual arguments. */
  folding = 0

  /** A project function run on the caller's values (folding), or null past the depth limit. */
  private runFolded(fn: FunctionDef, receiver: Val | null, args: ReadonlyMap<number, Val>): Val | null {
    if (this.folding > FOLDING_DEPTH || foldingNow.has(fn.id)) return null
    const run = new FunctionRun(this.engine, this.engine.unitOf(fn.path), fn, null, this.inlineDepth)
    run.folding = this.folding + 1
    foldingNow.add(fn.id)
    try {
      return run.runWith(receiver, args).returns
    } finally {
      foldingNow.delete(fn.id)
    }
  }

  /** A call into project code: in place for local functions, else through the summary. */
  private callFunction(fn: FunctionDef, receiver: Val | null, context: CallContext, state: State): Val {
    const args = this.argumentMap(fn, context, receiver !== null)
    if (this.folding > 0) {
      // Folding runs the overload of the call's arity (`get(key)` inside `get(key, fallback)`).
      const overload = fn.owner?.methods.get(`${fn.name}/${context.args.length}`) ?? fn
      const folded = this.runFolded(overload, receiver, overload === fn ? args : this.argumentMap(overload, context, receiver !== null))
      if (folded) return folded
    }
    if (this.isLocal(fn) && !this.engine.hasSummary(fn)) {
      const returned = this.runInline(fn, receiver, (index) => args.get(index) ?? CLEAN, state)
      if (returned) return returned
    }
    const summary = this.engine.summaryOf(fn)
    if (!summary) return this.propagate(context, null)
    const result = this.applySummary(fn, summary, receiver, args, context)
    if (summary.receiverOut && receiver && context.expr.callee.t === 'member') {
      const fields = this.instantiateFor(fn, summary.receiverOut, receiver, args, context).fields
      if (fields && fields.size > 0) {
        this.update(context.expr.callee.object, state, (object) => {
          let updated = object
          for (const [key, field] of fields) updated = withField(updated, key, join(readField(object, key), field))
          return updated
        })
      }
    }
    return result
  }

  /** A function defined inside the one being analyzed (it sees our variables). */
  private isLocal(fn: FunctionDef): boolean {
    const current = this.fn
    return current !== null && fn.path === current.path && fn.start > current.start && fn.end <= current.end
  }

  private construct(cls: ClassDef, context: CallContext): Val {
    const names = this.engine.unitOf(cls.path).spec.syntax.constructorNames ?? [cls.name]
    const ctor = names.map((name) => this.engine.findMethod(cls, name)).find((found) => found !== null) ?? null
    const fresh = val({ ref: { t: 'instance', cls }, qname: cls.name })
    if (!ctor) return fresh
    const args = this.argumentMap(ctor, context, true)
    const summary = this.engine.summaryOf(ctor)
    if (!summary) return { ...fresh, facts: this.propagate(context, null).facts }
    this.applySummary(ctor, summary, fresh, args, context)
    const out = summary.receiverOut ? this.instantiateFor(ctor, summary.receiverOut, fresh, args, context) : fresh
    return { ...out, ref: { t: 'instance', cls }, qname: cls.name, constant: undefined }
  }

  /** Caller facts for a callee's parameter (index, field path), with the call step added. */
  private binder(fn: FunctionDef, receiver: Val | null, args: ReadonlyMap<number, Val>, context: CallContext): (index: number, path: string) => readonly Fact[] {
    return (index, path) => {
      let value = index === -1 ? (receiver ?? CLEAN) : (args.get(index) ?? CLEAN)
      for (const key of path === '' ? [] : path.split('.')) value = readField(value, key)
      const facts = deepFacts(value)
      if (facts.length === 0) return facts
      const param: Param | undefined = index === -1 ? undefined : fn.params[index]
      const as = index === -1 ? 'receiver' : (param?.name ?? `argument ${index + 1}`)
      const step: Step = { site: context.expr.site, note: `passed to ${context.label}() as ${as}` }
      return facts.map((fact) => factWithStep(fact, step))
    }
  }

  private instantiateFor(fn: FunctionDef, value: Val, receiver: Val | null, args: ReadonlyMap<number, Val>, context: CallContext): Val {
    return instantiate(value, this.binder(fn, receiver, args, context))
  }

  /** Reports the callee's parameter sinks for our arguments and returns its result. */
  private applySummary(fn: FunctionDef, summary: Summary, receiver: Val | null, args: ReadonlyMap<number, Val>, context: CallContext): Val {
    const bind = this.binder(fn, receiver, args, context)
    for (const sink of summary.sinks) {
      if (sink.fact.origin.type !== 'param') continue
      for (const outer of bind(sink.fact.origin.index, sink.fact.origin.path)) this.reach(concatFact(outer, sink.fact), sink.hit, sink.safe)
    }
    return instantiate(summary.returns, bind)
  }

  // --- sinks ------------------------------------------------------------------------------

  /** A fact at a sink: a finding or trace for real sources, a summary entry for parameters. */
  private reach(fact: Fact, hit: SinkHit, safe: Step | null): void {
    if (fact.origin.type === 'source' && hit.spec.exceptSources?.includes(fact.origin.kind)) return
    if (fact.origin.type === 'param') {
      const kept = hit.regexRun ? this.pendingRegexRuns : this.paramSinks.length - this.pendingRegexRuns
      if (kept < ENGINE_LIMITS.sinksPerSummary) this.keepParamSink({ fact, hit, safe })
      return
    }
    this.engine.record(fact, hit, safe)
  }

  private keepParamSink(sink: ParamSink): void {
    this.paramSinks.push(sink)
    if (sink.hit.regexRun) this.pendingRegexRuns++
  }

  /**
   * A predictable random value (or, in a summary, a parameter) stored, passed or returned under a
   * name that says it is a secret: a `randomness` sink (secret-names.ts).
   */
  private checkSecretName(name: string | null, value: Val, site: Step['site'], note: string): void {
    if (name === null || !isSecretName(name)) return
    const facts = deepFacts(value).filter((fact) => fact.origin.type === 'param' || fact.origin.scope === 'prng')
    if (facts.length === 0) return
    // `return` as callee: the note is the whole sink description (report.ts).
    const hit: SinkHit = { spec: secretNameSink(note), site, callee: 'return' }
    for (const fact of facts) this.reach(fact, hit, null)
  }

  /**
   * `private String token = RandomStringUtils.randomAlphanumeric(8);`, `SECRET_KEY = ...` in a
   * class body: initializers of fields named like secrets (only those: other initializers are
   * not run here, as before).
   */
  private checkSecretFields(cls: ClassDef, state: State): void {
    for (const field of cls.fields.values()) {
      if (!field.init || !isSecretName(field.name)) continue
      this.checkSecretName(field.name, this.eval(field.init, state.clone()), field.init.site, `stored in field ${field.name}`)
    }
  }

  /**
   * `create_user(password=...)`, `user.setResetToken(...)`, `res.set("X-Csrf-Token", ...)`:
   * arguments given a secret's name by keyword, setter, or a name as the argument before them.
   */
  private checkSecretArguments(context: CallContext): void {
    for (const { arg, value } of context.args) {
      if (arg.keyword !== null) this.checkSecretName(arg.keyword, value, context.expr.site, `passed as ${arg.keyword}=`)
    }
    const positional = context.args.filter(({ arg }) => arg.keyword === null)
    const label = positional[0]?.value.constant
    const named = positional[1]
    if (named && typeof label === 'string' && /^[A-Za-z][\w.:-]{0,63}$/.test(label)) {
      this.checkSecretName(label, named.value, context.expr.site, `stored under the name ${label}`)
    }
    const callee = context.expr.callee
    const first = context.args[0]
    if (callee.t === 'member' && first && first.arg.keyword === null && /^set[A-Z_]/.test(callee.property)) {
      this.checkSecretName(callee.property, first.value, context.expr.site, `passed to ${callee.property}()`)
    }
  }

  /**
   * A project function named like a sink (`logger.info`, `db.query`): followed inside when it
   * reaches a sink of that kind itself, else it is the sink (a wrapper around something the
   * catalog does not know, such as a logger writing to stdout).
   */
  private checkWrapperSinks(fn: FunctionDef, context: CallContext): void {
    const summary = this.engine.summaryOf(fn)
    const inside = new Set(summary?.sinks.map((sink) => sink.hit.spec.kind) ?? [])
    this.checkCallSinks(context, (spec) => !inside.has(spec.kind))
  }

  /** Reports the call's dangerous arguments; true when the call is a sink. */
  private checkCallSinks(context: CallContext, only: (spec: SinkSpec) => boolean = () => true): boolean {
    let matched = false
    for (const spec of this.catalog.sinkCalls.match(context.names)) {
      if (!only(spec)) continue
      if (!conditionsHold(spec.when ?? [], context)) continue
      matched = true
      const safeCondition = spec.safeWhen?.find((condition) => conditionHolds(condition, context))
      const configured: Step | null = safeCondition ? { site: context.expr.site, note: `${context.label}() configured safely` } : null
      const hit: SinkHit = { spec, site: context.expr.site, callee: context.label }
      let dirty = false
      const fixedPrefix = spec.safePrefix === undefined ? null : regex(spec.safePrefix)
      for (const { value, facts } of sinkArguments(spec, context)) {
        const prefixed = fixedPrefix && value.prefix !== null && fixedPrefix.test(value.prefix)
        const safe = configured ?? (prefixed ? { site: context.expr.site, note: `fixed prefix ${JSON.stringify(value.prefix)} (scheme and host cannot change)` } : null)
        for (const fact of facts) this.reach(fact, hit, safe)
        dirty ||= safe === null && facts.some((fact) => (fact.cleaned & sinkKindBit(spec.kind)) === 0)
      }
      this.engine.noteSink(hit, dirty)
    }
    return matched
  }

  // --- user taint rules (overlay.ts) -----------------------------------------------------------

  /**
   * An expression's value as a user taint rule sees it: a source match taints it, a sanitizer
   * match cleans it (and, by side effect, the l-values it names), a propagator match moves its
   * input's data into its output l-value, and a sink match records what reaches it.
   */
  private overlaid(overlay: TaintOverlay, expr: Expr, value: Val, state: State): Val {
    const { start, end } = expr.site
    const entry = overlay.at(this.unit.path, start, end)
    let result = value
    if (entry) {
      for (const source of entry.sources) {
        const tainted = val({ facts: [sourceFact('rule', SOURCE_KIND_INFO.rule.scope, source.label, expr.site)] })
        if (source.bySideEffect && isAccessPath(expr)) this.update(expr, state, (old) => join(old, tainted))
        if (source.bySideEffect !== 'only') result = join(result, tainted)
      }
      for (const sanitizer of entry.sanitizers) {
        const step: Step = { site: expr.site, note: `${sanitizer.label} (sanitizer of ${overlay.ruleId})` }
        const clean = (old: Val) => cleaned(old, USER_MASK, step)
        if (sanitizer.bySideEffect) for (const target of sideEffectTargets(expr)) this.update(target, state, clean)
        if (sanitizer.bySideEffect !== 'only') result = clean(result)
      }
      for (const propagator of entry.propagators) {
        const from = this.rangeValues.get(rangeKey(propagator.from))
        const to = findExpr(expr, propagator.to)
        if (!from || !isTainted(from) || !to || !isAccessPath(to)) continue
        const moved = withStep(from, { site: expr.site, note: `${propagator.label} (propagates into ${pathOf(to) ?? 'its target'})` })
        this.update(to, state, (old) => join(old, moved))
      }
      for (const sink of entry.sinks) this.userSink(overlay, sink, expr, result)
    }
    this.rangeValues.set(rangeKey(expr.site), result)
    return result
  }

  /**
   * A user sink: the matched expression itself when the match is exact (or focused on a
   * metavariable), a matched call's arguments otherwise (`sink(...)`: what goes in, not what the
   * call returns or the function it names).
   */
  private userSink(overlay: TaintOverlay, sink: OverlaySink, expr: Expr, value: Val): void {
    const inputs = !sink.exact && expr.t === 'call' ? expr.args.flatMap((arg) => (arg.value.t === 'function' ? [] : [this.rangeValues.get(rangeKey(arg.value.site)) ?? CLEAN])) : [value]
    const hit: SinkHit = { spec: overlay.sinkSpec, site: expr.site, callee: sink.label }
    for (const input of inputs) for (const fact of deepFacts(input)) this.reach(fact, hit, null)
  }

  /**
   * An assignment or a return matched as a whole by a user sink (`$EL.innerHTML = $X`,
   * `return $X`): the assigned or returned value reaches it.
   */
  private userStatementSink(site: Step['site'], value: Val): void {
    const overlay = this.engine.overlay
    const entry = overlay?.at(this.unit.path, site.start, site.end)
    if (!overlay || !entry) return
    for (const sink of entry.sinks) {
      const hit: SinkHit = { spec: overlay.sinkSpec, site, callee: sink.label }
      for (const fact of deepFacts(value)) this.reach(fact, hit, null)
    }
  }

  /** A parameter matched by a user source (`def $F(..., $X, ...)` focused on `$X`). */
  private userParamSource(param: Param): Val | null {
    const overlay = this.engine.overlay
    if (!overlay) return null
    const sites = param.target.t === 'none' ? [param.site] : [param.site, param.target.site]
    for (const site of sites) {
      const source = overlay.at(this.unit.path, site.start, site.end)?.sources[0]
      if (source) return val({ facts: [sourceFact('rule', SOURCE_KIND_INFO.rule.scope, source.label, site)] })
    }
    return null
  }

  // --- guards -----------------------------------------------------------------------------

  /** The state on the branch where `test` has truth value `polarity`. */
  private refine(state: State, test: Expr, polarity: boolean): State {
    const ops = this.syntax.operators
    if (test.t === 'unary' && ops.not.includes(test.op)) return this.refine(state, test.operand, !polarity)
    if (test.t === 'binary') {
      if (ops.and.includes(test.op)) return polarity ? this.refine(this.refine(state, test.left, true), test.right, true) : this.refineEitherWay(state, test.left, test.right, false)
      if (ops.or.includes(test.op)) return polarity ? this.refineEitherWay(state, test.left, test.right, true) : this.refine(this.refine(state, test.left, false), test.right, false)
      let op = test.op
      let holds = polarity
      if (ops.negatedMembership?.includes(op)) {
        op = ops.membership?.[0] ?? op
        holds = !holds
      }
      if (holds) for (const guard of this.catalog.guardOperators.get(op) ?? []) this.applyGuard(state, test.left, guard.mask, guard.spec.requires, { site: test.site, note: guard.spec.note })
      if (!holds) this.refineRejection(state, this.catalog.rejectionOperators.get(op) ?? [], test.left, test.right, test.site)
      const equal = ops.equal.includes(test.op) ? polarity : ops.notEqual.includes(test.op) ? !polarity : null
      if (equal === true) this.viewEquality(state, test.left, test.right, test.site)
      if (equal === true) this.pinConstant(state, test.left, test.right)
      if (equal === true) this.refineTypeCheck(state, test.left, test.right, test.site)
      if (equal === false && this.catalog.prototypeWrites) this.refinePrototypeKeyComparison(state, test.left, test.right, test.site)
      this.refineLengthBound(state, test, polarity)
      this.refineUrlChecks(state, test, polarity)
      return state
    }
    if (test.t === 'call') {
      const inlined = this.inlinedPredicate(test, state)
      if (inlined) return this.refineInlined(state, inlined, polarity)
      this.refineElements(state, test, polarity)
    }
    if (test.t === 'call' && polarity) this.refineCall(state, test)
    if (test.t === 'call') this.refineUrlChecks(state, test, polarity)
    if (test.t === 'call' && !polarity) this.refineCallRejection(state, test)
    if (test.t === 'call' && !polarity && this.catalog.prototypeWrites) this.refinePrototypeDenyList(state, test)
    if (test.t === 'call' && !polarity && this.catalog.prototypeWrites) this.refinePrototypeKeyStart(state, test)
    // `if u.netloc: abort()`: no host at all is a relative URL, on the current host.
    if (!polarity && (test.t === 'member' || test.t === 'call')) this.cleanThroughView(state, test, ALL_SINK_KINDS_MASK, { site: test.site, note: 'no host (relative URL)' })
    return state
  }

  /**
   * URL checks on the branch where `test` has truth value `polarity`: a whole-host comparison
   * (`new URL(u).host === HOST`) makes the URL safe for redirects and requests; a substring test
   * posing as an allow-list (`u.includes("example.com")`) cleans nothing but is recorded on the
   * value, so the finding can point at it (weak-checks.ts).
   */
  private refineUrlChecks(state: State, test: Expr, polarity: boolean): void {
    const parsed = hostCheckSubject(test, polarity)
    const parsedTarget = parsed ? this.refinable(parsed) : null
    if (parsedTarget) {
      this.rewrite(parsedTarget, state, (value) => cleaned(value, sinkKindsMask(['redirect', 'url']), { site: test.site, note: 'host compared as a whole' }))
      return
    }
    const constantOf = (expr: Expr): string | null => {
      if (expr.t !== 'literal' && expr.t !== 'name' && expr.t !== 'member') return null
      const constant = this.eval(expr, state).constant
      return typeof constant === 'string' ? constant : null
    }
    const weak = weakCheckOf(test, polarity, constantOf)
    const target = weak ? this.refinable(weak.subject) : null
    if (!weak || !target) return
    const note = `${WEAK_CHECK_NOTE}: ${weak.what} (not an allow-list of hosts)`
    this.rewrite(target, state, (value) => withStep(value, { site: test.site, note }))
  }

  private refineCall(state: State, test: Extract<Expr, { t: 'call' }>): void {
    const callee = test.callee
    const written = pathOf(callee)
    if (callee.t === 'member' && (this.syntax.operators.equalityMethods ?? []).includes(callee.property) && test.args[0]) {
      this.viewEquality(state, callee.object, test.args[0].value, test.site)
      this.pinConstant(state, callee.object, test.args[0].value)
      return
    }
    if (!this.catalog.guardCalls.mayMatch(lastSegment(written ?? ''))) return
    const receiver = callee.t === 'member' ? this.eval(callee.object, state) : null
    const names = [receiver?.qname && callee.t === 'member' ? `${receiver.qname}.${callee.property}` : null, written]
    const context: CallContext = { expr: test, args: test.args.map((arg) => ({ arg, value: this.eval(arg.value, state) })), receiver, names, label: written ?? 'call', unit: this.unit }
    for (const guard of this.catalog.guardCalls.match(names)) {
      if (!conditionsHold(guard.spec.when ?? [], context)) continue
      const subject = guardSubject(guard.spec.subject, test)
      if (subject) this.applyGuard(state, subject, guard.mask, guard.spec.requires, { site: test.site, note: guard.spec.note })
    }
  }

  /** A project function of this file, called or passed, whose body is one returned test (predicates.ts). */
  private predicateOf(callee: Expr, state: State): { fn: FunctionDef; body: Expr } | null {
    const def = this.guardFunction(callee, state)
    const body = def ? predicateBody(def) : null
    return def && body ? { fn: def, body } : null
  }

  /** A function of this file, called or passed, that may guard its arguments; none past the inlining depth. */
  private guardFunction(callee: Expr, state: State): FunctionDef | null {
    if (this.predicateDepth >= MAX_PREDICATE_DEPTH) return null
    const ref = callee.t === 'function' ? null : this.eval(callee, state).ref
    const def = callee.t === 'function' ? callee.fn : ref?.t === 'function' ? ref.fn : null
    return def && def.path === this.unit.path ? def : null
  }

  /** `validateKey(key)` returned: every test its body throws on was false, over the call's arguments. */
  private refineValidated(state: State, call: Extract<Expr, { t: 'call' }>): State {
    if (call.args.some((arg) => arg.spread || arg.keyword !== null)) return state
    const def = this.guardFunction(call.callee, state)
    const tests = def ? validatorTests(def) : null
    if (!def || !tests) return state
    const args = call.args.map((arg) => arg.value)
    let refined = state
    for (const test of tests) {
      const inlined = instantiatePredicate(def, test, args, (name) => refined.vars.has(name))
      if (inlined) refined = this.refineInlined(refined, inlined, false)
    }
    return refined
  }

  /** `isValidKey(key)`: the predicate's returned test over the call's arguments. */
  private inlinedPredicate(test: Extract<Expr, { t: 'call' }>, state: State): Expr | null {
    if (test.args.some((arg) => arg.spread || arg.keyword !== null)) return null
    const predicate = this.predicateOf(test.callee, state)
    if (!predicate) return null
    return instantiatePredicate(predicate.fn, predicate.body, test.args.map((arg) => arg.value), (name) => state.vars.has(name))
  }

  private refineInlined(state: State, test: Expr, polarity: boolean): State {
    this.predicateDepth++
    try {
      return this.refine(state, test, polarity)
    } finally {
      this.predicateDepth--
    }
  }

  /**
   * `parts.some(p => BLOCKED.includes(p))` false, `parts.every(isValidKey)` true: the predicate
   * holds (or fails) for every element, so its guards apply to the list's data.
   */
  private refineElements(state: State, test: Extract<Expr, { t: 'call' }>, polarity: boolean): void {
    const callee = test.callee
    if (callee.t !== 'member' || !((callee.property === 'every' && polarity) || (callee.property === 'some' && !polarity))) return
    const target = this.refinable(callee.object)
    const filtered = target && test.args[0] ? this.elementsWhere(this.eval(callee.object, state), test.args[0].value, polarity, state) : null
    if (target && filtered) this.rewrite(target, state, () => filtered)
  }

  /** The list's data where a one-parameter predicate has the given truth value (`xs.filter(isValidKey)`). */
  private elementsWhere(list: Val, predicateExpr: Expr, polarity: boolean, state: State): Val | null {
    const predicate = this.predicateOf(predicateExpr, state)
    const param = predicate?.fn.params[0]?.name
    if (!predicate || !param || list.facts.length + (list.fields?.size ?? 0) === 0) return null
    const inner = state.clone()
    inner.vars.set(param, readAny(list))
    const refined = this.refineInlined(inner, predicate.body, polarity)
    const element = refined.vars.get(param)
    return element ? { ...CLEAN, facts: element.facts } : null
  }

  /** `typeof x === "function"` (or number, boolean...) on the true branch: x holds no text there. */
  private refineTypeCheck(state: State, left: Expr, right: Expr, site: Step['site']): void {
    const [check, type] = left.t === 'unary' ? [left, right] : [right, left]
    if (check.t !== 'unary' || check.op !== 'typeof' || type.t !== 'literal' || typeof type.value !== 'string' || !TEXTLESS_TYPES.has(type.value)) return
    this.applyGuard(state, check.operand, sinkKindsMask('all'), undefined, { site, note: `typeof is ${type.value}` })
  }

  /**
   * `s.length > 100` false, `len(s) <= 100` true: s holds at most that many characters there,
   * which a regex whose backtracking is polynomial matches in tolerable time (redos.ts).
   */
  private refineLengthBound(state: State, test: Extract<Expr, { t: 'binary' }>, polarity: boolean): void {
    let [op, measured, limit] = [test.op, lengthSubject(test.left), test.right]
    if (!measured) [op, measured, limit] = [MIRRORED_COMPARISONS[test.op] ?? '', lengthSubject(test.right), test.left]
    const n = measured ? this.eval(limit, state).constant : undefined
    if (!measured || typeof n !== 'number') return
    const holds = polarity ? op : NEGATED_COMPARISONS[op]
    const max = holds === '<' ? n - 1 : holds === '<=' ? n : null
    const bit = max === null ? 0 : lengthBoundBit(max)
    const target = bit === 0 ? null : this.refinable(measured)
    if (target) this.rewrite(target, state, (value) => cleaned(value, bit, { site: test.site, note: `length at most ${max}` }))
  }

  /** `x == "a"` on the true branch: x is that constant there (and so carries no data). */
  private pinConstant(state: State, left: Expr, right: Expr): void {
    const [subject, other] = left.t === 'literal' ? [right, left] : [left, right]
    if (other.t !== 'literal') return
    const pinned = this.pinnable(subject)
    if (!pinned) return
    // A case or space variant of the constant (`x.lower() == "a"`) carries no data either, but
    // it is not that constant.
    if (pinned.exact) this.rewrite(pinned.target, state, () => constantVal(other.value))
    else this.rewrite(pinned.target, state, (value) => ({ ...value, facts: [], fields: null, constant: undefined, prefix: null }))
  }

  /**
   * What an equality with a constant pins: the variable or access path compared, or the string a
   * case or space transform was applied to. A value derived in any other way (`c.getName()`, a
   * property of a call's result) pins nothing: its base object keeps its other data.
   */
  private pinnable(expr: Expr): { target: Expr; exact: boolean } | null {
    switch (expr.t) {
      case 'name':
        return { target: expr, exact: true }
      case 'member':
        return isAccessPath(expr.object) ? { target: expr, exact: true } : null
      case 'index':
        return expr.index.t === 'literal' && isAccessPath(expr.object) ? { target: expr, exact: true } : null
      case 'call': {
        const callee = expr.callee
        if (callee.t !== 'member') {
          const inner = callee.t === 'name' && VALUE_TRANSFORMS.has(callee.name) && expr.args[0] ? this.pinnable(expr.args[0].value) : null
          return inner ? { target: inner.target, exact: false } : null
        }
        const key = expr.args[0]?.value
        const read = this.catalog.collectionReads.match([pathOf(callee)])[0]
        if (read && read.key === 0 && key?.t === 'literal' && isAccessPath(callee.object)) return { target: { t: 'index', object: callee.object, index: key, site: expr.site }, exact: true }
        if (!VALUE_TRANSFORMS.has(callee.property) || expr.args.length > 1) return null
        const inner = this.pinnable(callee.object)
        return inner ? { target: inner.target, exact: false } : null
      }
      default:
        return null
    }
  }

  private applyGuard(state: State, subject: Expr, mask: number, requires: 'normalized-path' | undefined, step: Step): void {
    const target = this.refinable(subject)
    if (target) this.rewrite(target, state, (value) => cleaned(value, mask, step, requires === 'normalized-path'))
    this.cleanThroughView(state, subject, mask, step)
  }

  /**
   * The variable or access path a check is really about: `x` in `x.lower() in ALLOWED`,
   * `args["k"]` in `args.get("k") in ALLOWED` (only that key is checked, not the whole object).
   */
  private refinable(expr: Expr): Expr | null {
    switch (expr.t) {
      case 'name':
        return expr
      case 'member':
        return isAccessPath(expr.object) ? expr : this.refinable(expr.object)
      case 'index':
        return expr.index.t === 'literal' && isAccessPath(expr.object) ? expr : this.refinable(expr.object)
      case 'call': {
        const callee = expr.callee
        if (callee.t !== 'member') return expr.args[0] ? this.refinable(expr.args[0].value) : null
        const key = expr.args[0]?.value
        const read = this.catalog.collectionReads.match([pathOf(callee)])[0]
        if (read && read.key === 0 && key?.t === 'literal' && isAccessPath(callee.object)) return { t: 'index', object: callee.object, index: key, site: expr.site }
        return this.refinable(callee.object)
      }
      default:
        return null
    }
  }

  /** Replaces the value at an access path, starting from its full current value (sources included). */
  private rewrite(target: Expr, state: State, change: (value: Val) => Val): void {
    if (target.t === 'name' && !state.vars.has(target.name) && !this.outer?.(target.name)) return
    const current = this.eval(target, state)
    this.update(target, state, () => change(current))
  }

  // --- reject-and-return checks and parsed views ------------------------------------------

  /**
   * One of two operands decides the test: `a || b` holds where `a` does, or `a` fails and `b`
   * holds (`key === 'id' || isSafeKey(key)`, `outcome` true); `a && b` fails where `a` does, or
   * `a` holds and `b` fails (`outcome` false). What holds on both ways is kept.
   */
  private refineEitherWay(state: State, left: Expr, right: Expr, outcome: boolean): State {
    const byLeft = this.refine(state.clone(), left, outcome)
    const byRight = this.refine(this.refine(state.clone(), left, !outcome), right, outcome)
    state.vars = (joinStates([byLeft, byRight]) ?? state).vars
    return state
  }

  /** `".." in name` is false: name holds no such text, so it is clean for what that text attacks. */
  private refineRejection(state: State, rejections: readonly CompiledRejection[], needle: Expr, haystack: Expr, site: Step['site']): void {
    if (rejections.length === 0 || needle.t !== 'literal' || typeof needle.value !== 'string') return
    const text = needle.value
    for (const rejection of rejections) {
      if (rejection.needle.test(text)) this.applyGuard(state, haystack, rejection.mask, undefined, { site, note: `${rejection.spec.note} (rejects ${JSON.stringify(text)})` })
    }
  }

  /** `name.contains("..")` is false (the check that returns or throws when it is true). */
  /** `if (key === "__proto__") continue`: past the check, the key is not that prototype key. */
  private refinePrototypeKeyComparison(state: State, left: Expr, right: Expr, site: Step['site']): void {
    const [subject, key] = prototypeKeyLiteral(right) !== null ? [left, prototypeKeyLiteral(right)] : [right, prototypeKeyLiteral(left)]
    if (key !== null) this.excludePrototypeKeys(state, subject, [key], { site, note: `compared with "${key}"` })
    // `if (key[0] === '_') continue`: past the check, the key does not start with that character.
    for (const [read, other] of [[left, right], [right, left]] as const) {
      const keyRead = firstCharacterOf(read)
      if (!keyRead || other.t !== 'literal' || typeof other.value !== 'string' || other.value.length !== 1) continue
      const excluded = prototypeKeysStartingWith([other.value])
      if (excluded.length > 0) this.excludePrototypeKeys(state, keyRead, excluded, { site, note: `first character compared with "${other.value}"` })
    }
  }

  /** `if (key.startsWith('__')) continue`, `/^__/.test(key)` false: the key does not start so. */
  private refinePrototypeKeyStart(state: State, test: Extract<Expr, { t: 'call' }>): void {
    const constantOf = (expr: Expr): string | null => {
      if (expr.t !== 'literal' && expr.t !== 'name' && expr.t !== 'member') return null
      const constant = this.eval(expr, state).constant
      return typeof constant === 'string' ? constant : null
    }
    const tested = startTest(test, constantOf)
    const excluded = tested ? prototypeKeysStartingWith(tested.starts, tested.ignoreCase) : []
    if (tested && excluded.length > 0) this.excludePrototypeKeys(state, tested.subject, excluded, { site: test.site, note: `does not start with ${tested.starts.map((start) => `"${start}"`).join(' or ')}` })
  }

  /** A guard excluding some prototype keys; `__proto__` and `constructor` together clean the key. */
  private excludePrototypeKeys(state: State, subject: Expr, keys: Iterable<string>, step: Step): void {
    this.applyGuard(state, subject, exclusionMask(keys), undefined, step)
    const target = this.refinable(subject)
    if (target) this.rewrite(target, state, (value) => completeExclusion(value, step))
  }

  /** `if (BLOCKED.includes(key)) continue` with `__proto__` among the blocked keys. */
  private refinePrototypeDenyList(state: State, test: Extract<Expr, { t: 'call' }>): void {
    const callee = test.callee
    const subject = test.args[0]?.value
    if (callee.t !== 'member' || !subject || (callee.property !== 'includes' && callee.property !== 'has')) return
    const held = heldPrototypeKeys(this.eval(callee.object, state))
    for (const name of prototypeKeysNamedIn(callee.object.site.text)) held.add(name)
    if (held.size === 0) return
    this.excludePrototypeKeys(state, subject, held, { site: test.site, note: `prototype keys rejected (${[...held].join(', ')})` })
  }

  private refineCallRejection(state: State, test: Extract<Expr, { t: 'call' }>): void {
    const callee = test.callee
    if (callee.t !== 'member' || !test.args[0] || !this.catalog.rejectionCalls.mayMatch(callee.property)) return
    const written = pathOf(callee)
    const receiver = this.eval(callee.object, state)
    const names = [receiver.qname ? `${receiver.qname}.${callee.property}` : null, written]
    this.refineRejection(state, this.catalog.rejectionCalls.match(names), test.args[0].value, callee.object, test.site)
  }

  /** Records a parser or path normalization call: its result is a view of its inputs. */
  /** A parser that throws on malformed input returned: its input variable is clean for what it rejects (ViewSpec.validates). */
  private validatedByParse(context: CallContext, last: string, state: State): void {
    if (!this.catalog.views.mayMatch(last)) return
    const validates = this.catalog.views.match(context.names)[0]?.validates
    const input = context.expr.args[0]?.value
    if (!validates || !input || !isAccessPath(input)) return
    const step = { site: context.expr.site, note: `${context.label}() (throws on malformed input)` }
    this.update(input, state, (value) => cleaned(value, sinkKindsMask(validates), step))
  }

  private noteView(context: CallContext, last: string, state: State): void {
    const catalog = this.catalog
    let view: View | null = null
    if (catalog.views.mayMatch(last)) {
      const spec = catalog.views.match(context.names)[0]
      const input = context.expr.args[0]?.value
      if (spec && input) view = { sources: this.taintedPaths(input, state), components: spec.components, whole: [] }
    }
    if (!view && catalog.markers.mayMatch(last) && catalog.markers.match(context.names).length > 0) {
      view = { sources: this.taintedPaths(context.expr, state), components: null, whole: ['path'] }
    }
    if (view && view.sources.length > 0) this.viewCalls.set(context.expr, view)
  }

  private taintedPaths(expr: Expr, state: State): Expr[] {
    return accessPathsIn(expr).filter((path) => deepFacts(this.eval(path, state)).length > 0)
  }

  /** `u = urlparse(x)` makes u a view of x; any other assignment to u ends that. */
  private trackView(name: string, value: Expr | null): void {
    const view = value ? this.viewCalls.get(value) : undefined
    if (view && !view.sources.some((source) => source.t === 'name' && source.name === name)) this.views.set(name, view)
    else this.views.delete(name)
  }

  /** The view a checked expression reads, and the component read: `u.hostname`, `uri.getHost()`, or the view itself. */
  private viewRead(subject: Expr): { name: string; view: View; component: string | null } | null {
    let name: string | null = null
    let component: string | null = null
    if (subject.t === 'name') name = subject.name
    else if (subject.t === 'member' && subject.object.t === 'name') [name, component] = [subject.object.name, subject.property]
    else if (subject.t === 'call' && subject.args.length === 0 && subject.callee.t === 'member' && subject.callee.object.t === 'name') {
      ;[name, component] = [subject.callee.object.name, subject.callee.property]
    }
    const view = name === null ? undefined : this.views.get(name)
    return name !== null && view ? { name, view, component } : null
  }

  /**
   * A check on a view validates what it is a view of, for the sink kinds the checked part
   * decides: a host check for requests and redirects, a containment check on a normalized path
   * for file access. The view itself is cleaned too when a component was checked.
   */
  private cleanThroughView(state: State, subject: Expr, mask: number, step: Step): void {
    const read = this.viewRead(subject)
    if (!read) return
    const kinds = read.component === null ? read.view.whole : (read.view.components?.[read.component] ?? [])
    const cleans = mask & sinkKindsMask(kinds)
    if (cleans === 0) return
    const viewStep: Step = { site: step.site, note: `${step.note}, on a parsed view` }
    for (const source of read.view.sources) {
      const target = this.refinable(source)
      if (target) this.rewrite(target, state, (value) => cleaned(value, cleans, viewStep))
    }
    if (read.component !== null) this.rewrite({ t: 'name', name: read.name, site: step.site }, state, (value) => cleaned(value, cleans, viewStep))
  }

  /** `u.netloc == request.host`, `uri.getHost() != null` (checked to be false): a fixed host. */
  private viewEquality(state: State, left: Expr, right: Expr, site: Step['site']): void {
    for (const [subject, other] of [[left, right], [right, left]] as const) {
      if (!this.viewRead(subject)) continue
      if (other.t !== 'literal' && deepFacts(this.eval(other, state)).length > 0) continue
      this.cleanThroughView(state, subject, ALL_SINK_KINDS_MASK, { site, note: 'host compared with a trusted value' })
    }
  }
}

/** Source text short enough for a sink note. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ')
  return line.length > 60 ? `${line.slice(0, 57)}...` : line
}

/** The expression a guard call checks (see GuardSpec.subject). */
function guardSubject(subject: GuardSpec['subject'], test: Extract<Expr, { t: 'call' }>): Expr | null {
  const callee = test.callee
  if (subject === 'receiver' || subject === undefined) return callee.t === 'member' ? callee.object : null
  if ('arg' in subject) return test.args[subject.arg]?.value ?? null
  // `PATTERN.matcher(x).matches()`: the value checked went into the call that made the receiver.
  const maker = callee.t === 'member' ? callee.object : null
  return maker?.t === 'call' ? (maker.args[subject.receiverArg]?.value ?? null) : null
}

/** Access paths inside an expression whose data may flow into its value (`a`, `req.query.x`). */
function accessPathsIn(expr: Expr, depth = 0): Expr[] {
  if (depth > 6) return []
  switch (expr.t) {
    case 'name':
      return [expr]
    case 'member':
      return isAccessPath(expr) ? [expr] : accessPathsIn(expr.object, depth + 1)
    case 'index':
      return expr.index.t === 'literal' && isAccessPath(expr.object) ? [expr] : accessPathsIn(expr.object, depth + 1)
    case 'call':
      return [...(expr.callee.t === 'member' ? accessPathsIn(expr.callee.object, depth + 1) : []), ...expr.args.flatMap((arg) => accessPathsIn(arg.value, depth + 1))]
    case 'binary':
      return [...accessPathsIn(expr.left, depth + 1), ...accessPathsIn(expr.right, depth + 1)]
    case 'template':
    case 'other':
      return expr.parts.flatMap((part) => accessPathsIn(part, depth + 1))
    default:
      return []
  }
}

/** Library methods that keep their last argument in the receiver, under the arguments before it. */
const STORE_METHODS = new Set(['set', 'put', 'setProperty', 'setAttribute', 'setItem', 'setValue', 'setParameter', 'store', 'putValue', 'setOption'])
const GET_METHODS = new Set(['get', 'getProperty', 'getAttribute', 'getItem', 'getValue', 'getParameter', 'getOption', 'getString'])
/** Keys of values stored by such calls (a separator no source text holds). */
const STORED = '\u0000'

function storedKey(parts: ReadonlyArray<Const | undefined>): string | null {
  if (parts.length === 0 || parts.some((part) => part === undefined || part === null)) return null
  return STORED + parts.map(String).join(STORED)
}

/** Calls and classes that make a list of their arguments, or an empty list. */
const LIST_FACTORIES = new Set(['List.of', 'Arrays.asList', 'Set.of', 'Collections.singletonList', 'Array.of'])
const LIST_CLASSES = new Set(['ArrayList', 'LinkedList', 'Vector', 'ArrayDeque', 'CopyOnWriteArrayList'])

/** Conversions of a constant to its text. */
const TO_STRING = new Set(['String.valueOf', 'String', 'str', 'Integer.toString', 'Long.toString', 'Objects.toString'])

/** Calls whose result is the same text up to case, surrounding space or type (equality on it pins its input). */
const VALUE_TRANSFORMS = new Set(['lower', 'upper', 'casefold', 'strip', 'lstrip', 'rstrip', 'trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'toLocaleLowerCase', 'toLocaleUpperCase', 'toString', 'str', 'String', 'intern'])

/** Ordering comparisons: a boolean, whatever the operands were. */
const COMPARISONS = new Set(['<', '>', '<=', '>='])
/** `a < b` read from the other side: `b > a`. */
const MIRRORED_COMPARISONS: Partial<Record<string, string>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' }
/** What holds where a comparison fails: `a > b` false is `a <= b`. */
const NEGATED_COMPARISONS: Partial<Record<string, string>> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<' }

/** The text whose length an expression measures: `s.length`, `len(s)`. */
function lengthSubject(expr: Expr): Expr | null {
  if (expr.t === 'member' && expr.property === 'length') return expr.object
  if (expr.t === 'call' && expr.callee.t === 'name' && expr.callee.name === 'len' && expr.args.length === 1) return expr.args[0]?.value ?? null
  return null
}

/** `typeof` results of values that carry no attacker text (a function passed where code could be). */
const TEXTLESS_TYPES = new Set(['function', 'number', 'boolean', 'undefined', 'bigint', 'symbol'])

/**
 * Arithmetic on a predictable random number is still predictable (`100000 + rnd * 900000`),
 * though it carries no attacker text: only generator facts survive.
 */
function predictable(left: Val, right: Val): Val {
  const facts = mergeFacts(deepFacts(left), deepFacts(right)).filter((fact) => fact.origin.type === 'source' && fact.origin.scope === 'prng')
  return facts.length === 0 ? CLEAN : { ...CLEAN, facts }
}

function isAccessPath(expr: Expr): boolean {
  return expr.t === 'name' || (expr.t === 'member' && isAccessPath(expr.object))
}

function targetText(target: Target): string {
  switch (target.t) {
    case 'name':
      return target.name
    case 'member':
      return `${pathOf(target.object) ?? '…'}.${target.property}`
    case 'index':
      return `${pathOf(target.object) ?? '…'}[…]`
    case 'pattern':
      return target.items.map((item) => (item.target.t === 'name' ? item.target.name : '…')).join(', ')
    case 'none':
      return '…'
  }
}


/** Wrappers followed with actual arguments when folding an algorithm name (get(k, d) -> get(k) -> props). */
const FOLDING_DEPTH = 4

/** Functions being run by folding right now (recursion stops there). */
const foldingNow = new Set<string>()

/** Reads of one key that return the value stored under it or else a given default. */
const TABLE_READS = new Set(['get', 'getOrDefault'])

/**
 * `{"open": "paid = false", ...}.get(status, "true")`, `Map.of(...).getOrDefault(k, "x")`: a
 * lookup in a table whose contents are all known and clean returns one of its values or the
 * default, never the key, so an unknown (even untrusted) key only chooses among constants.
 * Null when the receiver is not such a table (a request's parameters, a map filled elsewhere).
 */
function tableLookup(context: CallContext): Val | null {
  const receiver = context.receiver
  const callee = context.expr.callee
  if (!receiver?.fields || receiver.fields.size === 0 || (receiver.ref !== null && receiver.ref.t !== 'type') || callee.t !== 'member' || !TABLE_READS.has(callee.property)) return null
  if (deepFacts(receiver).length > 0 || context.args.some(({ arg }) => arg.spread)) return null
  const fallback = context.args.filter(({ arg }) => arg.keyword === null)[1]?.value ?? CLEAN
  return join(readAny(receiver), fallback)
}

/** The bit user taint is cleaned on (overlay.ts). */
const USER_MASK = sinkKindBit(USER_SINK_KIND)

function rangeKey(range: TextRange): string {
  return `${range.start}:${range.end}`
}

/** The l-values a by-side-effect sanitizer cleans: the matched l-value, or a matched call's l-value arguments. */
function sideEffectTargets(expr: Expr): Expr[] {
  if (isAccessPath(expr)) return [expr]
  if (expr.t === 'call') return expr.args.map((arg) => arg.value).filter(isAccessPath)
  return []
}

/** The sub-expression of `expr` (or `expr` itself) spanning exactly `range`. */
function findExpr(expr: Expr, range: TextRange, depth = 0): Expr | null {
  if (expr.site.start === range.start && expr.site.end === range.end) return expr
  if (depth > 24 || range.start < expr.site.start || range.end > expr.site.end) return null
  for (const child of childExprs(expr)) {
    const found = findExpr(child, range, depth + 1)
    if (found) return found
  }
  return null
}

function childExprs(expr: Expr): readonly Expr[] {
  switch (expr.t) {
    case 'member':
      return [expr.object]
    case 'index':
      return [expr.object, expr.index]
    case 'call':
      return [expr.callee, ...expr.args.map((arg) => arg.value)]
    case 'binary':
      return [expr.left, expr.right]
    case 'unary':
      return [expr.operand]
    case 'conditional':
      return [expr.test, expr.then, expr.else]
    case 'list':
      return expr.elements
    case 'dict':
      return expr.entries.map((entry) => entry.value)
    case 'template':
    case 'other':
      return expr.parts
    case 'assign':
      return [expr.value]
    default:
      return []
  }
}
