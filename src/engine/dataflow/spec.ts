/**
 * What a language spec is: a description, as data, of a language's syntax (which tree-sitter
 * node kinds are functions, calls, assignments, branches... and in which fields their parts
 * live) and of its security catalog (sources, sinks, sanitizers, guards, library semantics).
 * The engine (lower.ts, interpreter.ts) reads only this; adding a language means writing one.
 *
 * Qualified names in the catalog are globs over dotted names: `*` is one segment (or part of
 * one), `**.` any number of leading segments, `{a,b}` alternatives. They are matched against a
 * call's callee or an access path both as written (`cursor.execute`) and as resolved through
 * imports and declared types (`subprocess.run` for `sp.run` after `import subprocess as sp`).
 */
import type { CodeLanguage } from '../core/languages.ts'
import type { SinkKind, SourceKind, SourceScope } from './kinds.ts'

/** Where a part of a node is: a field name, or named children picked by kind or position. */
export type Locator =
  | string
  | { readonly kinds: readonly string[]; readonly in?: Locator }
  | { readonly nth: number; readonly except?: readonly string[] }
  | { readonly all: true; readonly except?: readonly string[] }

/** How one node kind lowers to the engine's language-neutral form (ir.ts). */
export type NodeRule =
  // --- expressions
  | { readonly as: 'name' }
  | { readonly as: 'this' }
  | { readonly as: 'literal'; readonly value: 'string' | 'number' | 'true' | 'false' | 'null' }
  /** a string literal; children of `interpolation` kinds make it a template (f-string, `${}`) */
  | { readonly as: 'string'; readonly interpolation?: readonly string[] }
  /** adjacent literals that concatenate (Python `"a" "b"`) */
  | { readonly as: 'concat' }
  | { readonly as: 'member'; readonly object: Locator; readonly property: Locator }
  | { readonly as: 'index'; readonly object: Locator; readonly index: Locator }
  | { readonly as: 'call'; readonly callee: Locator; readonly args: Locator }
  /** receiver and method name in separate fields (Java); no receiver means a plain call */
  | { readonly as: 'method-call'; readonly object: Locator; readonly name: Locator; readonly args: Locator }
  | { readonly as: 'new'; readonly callee: Locator; readonly args: Locator }
  /** no `operator` locator: the operator is the anonymous tokens between the operands */
  | { readonly as: 'binary'; readonly left: Locator; readonly right: Locator; readonly operator?: Locator }
  | { readonly as: 'unary'; readonly operand: Locator; readonly operator?: Locator }
  | { readonly as: 'conditional'; readonly test: Locator; readonly then: Locator; readonly else: Locator }
  | { readonly as: 'list' }
  /** a comma list that is its one element when it has one (Go's `expression_list`): a list value, a tuple target */
  | { readonly as: 'sequence' }
  /** the comma operator: operands run in order, the value is the last one's (`(0, obj.method)(x)`) */
  | { readonly as: 'comma' }
  | { readonly as: 'dict' }
  /** `nameKeys`: kinds of key nodes that name a field, not a variable (Go struct literals `T{Name: v}`) */
  | { readonly as: 'pair'; readonly key: Locator; readonly value: Locator; readonly nameKeys?: readonly string[] }
  /** `{ b }` in an object literal: key and value are the same name */
  | { readonly as: 'shorthand' }
  | { readonly as: 'spread'; readonly value: Locator }
  | { readonly as: 'keyword-arg'; readonly name: Locator; readonly value: Locator }
  | {
      readonly as: 'function'
      readonly name?: Locator
      readonly params: Locator
      /** a lone parameter without a list (`x => x + 1`) */
      readonly singleParam?: Locator
      readonly body: Locator
      readonly decorators?: Locator
      /** method modifiers such as `static` live here (Java) */
      readonly modifiers?: Locator
      /** the receiver's parameter list, declared apart from the others (Go `func (s *Server) h()`) */
      readonly receiver?: Locator
    }
  /** evaluates to its inner node: parentheses, await, casts, expression statements */
  | { readonly as: 'transparent'; readonly inner?: Locator }
  | { readonly as: 'assign'; readonly target: Locator; readonly value: Locator; readonly operator?: Locator; readonly type?: Locator }
  | { readonly as: 'ignore' }
  // --- statements
  | { readonly as: 'block'; readonly body?: Locator }
  | { readonly as: 'declaration'; readonly declarators: Locator; readonly type?: Locator }
  | { readonly as: 'declarator'; readonly target: Locator; readonly value: Locator }
  /** `else` may locate several nodes: a chain of elif/else clauses */
  /** `init`: a statement run before the test (Go `if v := f(); v != "" {`) */
  | { readonly as: 'if'; readonly test: Locator; readonly then: Locator; readonly else?: Locator; readonly init?: Locator }
  | { readonly as: 'else'; readonly body?: Locator }
  | { readonly as: 'while'; readonly test: Locator; readonly body: Locator }
  | { readonly as: 'do'; readonly test: Locator; readonly body: Locator }
  | {
      readonly as: 'for'
      readonly init?: Locator
      readonly test?: Locator
      /** where the test is when `test` finds none (Go: `for i < n {}` beside `for i := 0; i < n; i++ {}`) */
      readonly testOr?: Locator
      readonly update?: Locator
      readonly body: Locator
      /** one loop kind for both forms (Go): when this clause is present the loop is a for-each over it */
      readonly each?: { readonly clause: Locator; readonly target: Locator; readonly iterable: Locator }
    }
  | { readonly as: 'foreach'; readonly target: Locator; readonly iterable: Locator; readonly body: Locator; readonly type?: Locator }
  | { readonly as: 'return'; readonly value?: Locator }
  | { readonly as: 'throw' }
  | { readonly as: 'break' }
  | { readonly as: 'continue' }
  | { readonly as: 'try'; readonly body: Locator; readonly handlers?: Locator; readonly finally?: Locator; readonly resources?: Locator }
  | { readonly as: 'catch'; readonly binding?: Locator; readonly body: Locator }
  | { readonly as: 'switch'; readonly value: Locator; readonly cases: Locator }
  /**
   * `test` locates the label; a label node without a rule holds its values (`case A, B`), none
   * for the default. `fallsThrough`: the body continues into the next case unless it breaks (C
   * style). `alternatives`: kinds of label nodes whose children are alternative values (`"a" | "b"`).
   */
  | { readonly as: 'case'; readonly test?: Locator; readonly body?: Locator; readonly fallsThrough?: boolean; readonly alternatives?: readonly string[] }
  | {
      readonly as: 'class'
      readonly name: Locator
      readonly body: Locator
      readonly superclasses?: Locator
      readonly decorators?: Locator
      readonly interface?: boolean
    }
  /** class members that are not methods */
  | { readonly as: 'field'; readonly declarators?: Locator; readonly name?: Locator; readonly type?: Locator; readonly value?: Locator; readonly modifiers?: Locator }
  /** a definition wrapped with its decorators (Python `decorated_definition`) */
  | { readonly as: 'decorated'; readonly definition: Locator; readonly decorators: Locator }
  /** `export ...`: a declaration, a default value, or a list of specifiers */
  /** `source`: the module of a re-export (`export { a as b } from 'm'`) */
  | { readonly as: 'export'; readonly declaration?: Locator; readonly value?: Locator; readonly specifiers?: Locator; readonly source?: Locator }
  | { readonly as: 'export-specifier'; readonly name: Locator; readonly alias?: Locator }
  // --- imports
  /** `from m import a, b as c` */
  | { readonly as: 'import-from'; readonly module: Locator; readonly names: Locator }
  /** `import a.b`, `import a.b as c` */
  | { readonly as: 'import-module'; readonly names: Locator }
  /** `import x, { a as b }, * as ns from 'm'` */
  | { readonly as: 'import-es'; readonly source: Locator; readonly clause: Locator }
  /** `import a.b.C;` (Java): the path names one class, or a package with `.*` */
  | { readonly as: 'import-path'; readonly path: Locator }
  /** `import str "strings"` (Go): a package by its path, named by its last segment unless aliased */
  | { readonly as: 'import-package'; readonly path: Locator; readonly alias?: Locator }
  | { readonly as: 'import-alias'; readonly name: Locator; readonly alias: Locator }
  | { readonly as: 'import-namespace'; readonly name: Locator }
  | { readonly as: 'import-named'; readonly specifiers: Locator }
  // --- assignment targets and parameters
  | { readonly as: 'tuple-pattern' }
  | { readonly as: 'object-pattern' }
  | { readonly as: 'pair-pattern'; readonly key: Locator; readonly value: Locator }
  | { readonly as: 'rest-pattern'; readonly target?: Locator }
  | { readonly as: 'default-pattern'; readonly target: Locator; readonly value: Locator }
  | {
      readonly as: 'param'
      readonly target: Locator
      readonly type?: Locator
      readonly default?: Locator
      readonly decorators?: Locator
      readonly rest?: 'list' | 'dict'
      /** present when the parameter also declares a field (TypeScript `private readonly svc: Svc`) */
      readonly property?: Locator
      /** the target locator finds several names sharing the type: one parameter each (Go `a, b string`) */
      readonly several?: boolean
    }

export interface SyntaxSpec {
  readonly nodes: Readonly<Record<string, NodeRule>>
  /** kinds of decorator / annotation nodes; their name is their text up to `(` without `@` */
  readonly decoratorKinds: readonly string[]
  /** the function that loads a module by name (`require`), if any */
  readonly requireFunctions?: readonly string[]
  /**
   * Helpers compiled code wraps a loaded module in (TypeScript's `__importStar(require('x'))`,
   * Babel's `_interopRequireDefault`): `namespace` ones give the module back, `default` ones an
   * object whose `default` is the module. Lowered away so the module's name reaches its calls.
   */
  readonly moduleInterop?: { readonly namespace: readonly string[]; readonly default: readonly string[] }
  /** the receiver is an explicit first parameter (Python `self`) */
  readonly explicitSelf?: boolean
  /** bare names that are fields of the enclosing class mean `this.<name>` (Java) */
  readonly implicitThis?: boolean
  /**
   * declared types whose values carry no text (Java `int`, `long`, `boolean`...): the language
   * converts or rejects anything else before the value exists, so it is clean for every sink
   */
  readonly scalarTypes?: readonly string[]
  /** names of constructors (`__init__`, `constructor`); Java: a method named like its class */
  readonly constructorNames?: readonly string[]
  /** Go: the top-level names of every file in the same folder (one package) are visible without an import */
  readonly packageScope?: boolean
  /** JS: `module.exports` / `exports` objects exist in every module */
  readonly commonJsExports?: boolean
  /** JS: the list every function's arguments are in, whatever its parameters (`arguments`) */
  readonly argumentsObject?: string
  /** Python: every top-level name can be imported (no export list) */
  readonly operators: OperatorSpec
  /** `go`: an import path names the repository folder it ends with (a package: see packageScope) */
  readonly moduleResolution: 'python' | 'node' | 'java' | 'go'
}

/** Operator spellings the engine gives meaning to (constant folding, guards). */
export interface OperatorSpec {
  readonly and: readonly string[]
  readonly or: readonly string[]
  readonly not: readonly string[]
  readonly equal: readonly string[]
  readonly notEqual: readonly string[]
  readonly membership?: readonly string[]
  readonly negatedMembership?: readonly string[]
  /** operators whose result is a boolean or number, never carrying the operands' data */
  readonly clean: readonly string[]
  /** unary operators whose value is their operand's (Go `&x`, `*p`, `<-ch`) */
  readonly passThrough?: readonly string[]
  /** `x ?? y` style: the value is one of the operands */
  readonly coalesce?: readonly string[]
  /** operators that join paths (`Path(root) / name`): the result is of the left operand's type */
  readonly pathJoin?: readonly string[]
  /** operators that format their right operand into the left one (`"%s" % x`) */
  readonly format?: readonly string[]
  /** methods that compare for equality: `"a".equals(x)` pins x on the true branch */
  readonly equalityMethods?: readonly string[]
}

// --- security catalog ---------------------------------------------------------------------

/** An argument of a call: by position or keyword; `field` picks one key of an object argument. */
export interface ArgRef {
  readonly index?: number
  readonly keyword?: string
  /** the whole value only, not data stored in its known fields (a request object as a filter) */
  readonly shallow?: boolean
  /** only this key of an object/dict argument (`{ filter: ... }`, `{"$where": ...}`) */
  readonly field?: string
  /** a list literal here: only its first element (the program) counts */
  readonly program?: boolean
  /**
   * the values of the object/dict argument's fields, where they come from a structured source
   * (or a parameter): `{"owner": body["owner"]}` can carry `{"$ne": null}` (operator injection)
   */
  readonly structuredFields?: boolean
  /** each element of a list argument on its own (so that `safePrefix` applies per element) */
  readonly elements?: boolean
  /** the receiver of a method call (`path.read_text()`: the path object is the file name) */
  readonly receiver?: boolean
}

export type Condition =
  /** a keyword argument (or a field of the options object at `index`) has this constant value */
  | { readonly keyword: string; readonly equals: string | number | boolean | null; readonly optionsIndex?: number }
  /** the file imports one of these modules (or names starting with them) */
  | { readonly imports: readonly string[] }
  /**
   * the argument's declared type or qualified name (`ZipInputStream zip`), else its source text
   * (`req.getInputStream()`), matches; `absent`: does not (an argument that is a stream, not a path)
   */
  | { readonly argType: { readonly index: number; readonly matches: string; readonly absent?: boolean } }
  /** the argument's source text matches this regular expression (`orMissing`: or there is no such argument) */
  | { readonly argText: { readonly index?: number; readonly keyword?: string; readonly matches: string; readonly orMissing?: boolean } }
  /** the enclosing function or its file mentions one of these texts (hardened parser set-up) */
  | { readonly mentions: readonly string[] }
  /**
   * the nearest dependency manifest declares `name` with a version range starting at or above
   * major `atLeast` (manifests.ts); an undeclared dependency or unreadable range does not hold
   */
  | { readonly dependency: { readonly name: string; readonly atLeast: number } }
  /** the call has at least this many positional arguments */
  | { readonly minArgs: number }
  /** the options object at `optionsIndex` sets this key (`{ root: dir }`) */
  | { readonly option: string; readonly optionsIndex: number }
  /** the receiver's source text matches (an anchored regex literal's `test`) */
  | { readonly receiverText: string }
  /** the call is written as a method call (`db.query(...)`, not an imported `query(...)`) */
  | { readonly method: true }
  /** the receiver holds data of one of these source kinds (an uploaded file's `save(path)`) */
  | { readonly receiverSource: readonly SourceKind[] }
  /** the receiver's known constant value matches (a regex literal kept in a constant: `NAME.test(x)`) */
  | { readonly receiverConstant: string }
  /** the receiver's declared type or qualified name matches (a `Pattern` field's `split(input)`, not a String's) */
  | { readonly receiverType: string }
  /** the receiver (or the argument at `index` / `keyword`) was configured so (`ConfigurationSpec`); `absent`: was not */
  | { readonly marked: ConfigMark; readonly index?: number; readonly keyword?: string; readonly absent?: boolean }

export interface SourceSpec {
  readonly kind: SourceKind
  /** access paths whose value is untrusted (`request.args`, `req.query`) */
  readonly access?: readonly string[]
  /** calls whose result is untrusted (`request.get_json`, `*.getParameter`) */
  readonly call?: readonly string[]
  /** parameters that receive untrusted data */
  readonly param?: ParamSourceSpec
  /** what the source is, for traces: "request.args" is shown with this label */
  readonly label?: string
  /** the call writes the source's data into this argument (`random.nextBytes(buffer)`) */
  readonly fills?: number
  /** its values can be objects or lists (a parsed JSON body), not only strings */
  readonly structured?: boolean
}

export interface ParamSourceSpec {
  /** the parameter carries one of these decorators/annotations (`Query`, `RequestParam`) */
  readonly decorators?: readonly string[]
  /** the function carries one of these decorators (`app.get`, `router.post`) */
  readonly functionDecorators?: readonly string[]
  /** the function's name matches (`main`, `GET`) */
  readonly functionNames?: readonly string[]
  /** only this parameter position (receiver excluded) */
  readonly index?: number
  /** the file's path matches this regular expression (`route.ts`) */
  readonly fileMatches?: string
  /** parameters with these names or declared types are not sources (framework objects) */
  readonly exceptNames?: readonly string[]
  readonly exceptTypes?: readonly string[]
  /** parameters whose default value's text matches this are not sources (`Depends(...)`) */
  readonly exceptDefaults?: string
  /** the parameter's declared type must match (`String[]` for main) */
  readonly types?: readonly string[]
}

export interface SinkSpec {
  readonly kind: SinkKind
  /** callees, as qualified-name globs */
  readonly call?: readonly string[]
  /** assignment targets: `ctx.body`, `**.session[]` (`[]` is any subscript) */
  readonly assign?: readonly string[]
  /** assignment targets: the subscript key is dangerous too (`session[name] = True`) */
  readonly assignKey?: boolean
  /** values returned from functions carrying one of these decorators (Flask views) */
  readonly returnFrom?: { readonly functionDecorators: readonly string[] }
  /** dangerous arguments; default: every positional argument */
  readonly args?: readonly ArgRef[]
  /** every condition must hold for the call to be a sink */
  readonly when?: readonly Condition[]
  /** any condition holding makes it safe (reported as a sanitized path) */
  readonly safeWhen?: readonly Condition[]
  /** what the dangerous argument is, for traces: "SQL query text" */
  readonly note: string
  /** a more specific CWE than the kind's */
  readonly cwe?: string
  /** source scopes that count here; default remote and command line */
  readonly sources?: readonly SourceScope[]
  /** source kinds that do not count here although their scope does (`http-path` keys are the route's) */
  readonly exceptSources?: readonly SourceKind[]
  /**
   * A value whose known constant prefix matches this regular expression is safe here: a URL
   * whose scheme and host (or leading `/`) are fixed cannot send the request or the user
   * elsewhere.
   */
  readonly safePrefix?: string
  /**
   * A prototype-pollution sink that can reach a prototype other objects share (pollution.ts): a
   * nested write, a write into an object reached by an untrusted key, a recursive merge.
   */
  readonly sharedPrototype?: boolean
  /**
   * The argument names the program to run, which no shell reads (`spawn(file, args)`): the caller
   * of a library choosing it is using the API, not injecting into a command (library.ts).
   */
  readonly programName?: boolean
  /** Text checked to be at most this long is safe here (a polynomial regex on bounded input, redos.ts). */
  readonly safeWithinLength?: number
}

export interface SanitizerSpec {
  readonly call: readonly string[]
  readonly cleans: readonly SinkKind[] | 'all'
  /** only this argument is cleaned (default: every argument and the receiver) */
  readonly arg?: number
  /** the call has to look like this (a replace() whose pattern removes CR/LF) */
  readonly when?: readonly Condition[]
  readonly note: string
}

/** A call that marks its result instead of cleaning it (path normalization before a check). */
export interface MarkerSpec {
  readonly call: readonly string[]
  readonly marks: 'normalized-path'
  readonly note: string
}

/**
 * A condition that, when true on a branch, makes its subject safe on that branch: allowlist
 * membership, validators, a prefix check on a normalized path.
 */
export interface GuardSpec {
  /** binary operators (`in`); the subject is the left operand */
  readonly operator?: readonly string[]
  /** calls (`ALLOWED.includes(x)`, `p.startswith(base)`) */
  readonly call?: readonly string[]
  /**
   * whose value is checked: the receiver or an argument (calls), the left operand (operators);
   * `receiverArg`: an argument of the call that made the receiver (`P.matcher(x).matches()`)
   */
  readonly subject?: 'receiver' | { readonly arg: number } | { readonly receiverArg: number }
  readonly cleans: readonly SinkKind[] | 'all'
  /** the subject must have been normalized first */
  readonly requires?: 'normalized-path'
  readonly when?: readonly Condition[]
  readonly note: string
}

/**
 * A check that is true for dangerous input (`".." in name`, `name.contains("'")`): code that
 * rejects on it (returns, throws, aborts) leaves the checked value clean on the other branch.
 * The needle must be a constant matching `needle`; the haystack is the value cleaned.
 */
export interface RejectionSpec {
  /** membership operators (`needle in haystack`) */
  readonly operator?: readonly string[]
  /** methods of the haystack taking the needle first (`haystack.contains(needle)`) */
  readonly call?: readonly string[]
  /** regular expression over the needle's constant value */
  readonly needle: string
  readonly cleans: readonly SinkKind[]
  readonly note: string
}

/**
 * A parser whose result is a view of its input (`urlparse(x)`, `new URL(x)`): a check on one of
 * the view's components validates the input itself for the sink kinds that component decides
 * (the host decides where a request or redirect goes; the scheme alone does not).
 */
export interface ViewSpec {
  readonly call: readonly string[]
  /** component (field, or getter method called without arguments) -> sink kinds it protects */
  readonly components: Readonly<Record<string, readonly SinkKind[]>>
  /**
   * the parser throws on malformed input (Java `new URI(s)` on spaces, CR/LF, control
   * characters): where it returned, the input variable is clean for these kinds
   */
  readonly validates?: readonly SinkKind[]
}

/** What a configuration call says about an object: its parser refuses DTDs, or resolves external entities. */
export type ConfigMark = 'hardened' | 'resolving'

/**
 * A call that configures an object (`factory.setFeature(DISALLOW_DOCTYPE, true)`,
 * `etree.XMLParser(resolve_entities=True)`): the receiver, or the call's result, carries the
 * mark, and so does every object a library call on it makes (`factory.newDocumentBuilder()`).
 */
export interface ConfigurationSpec {
  readonly call: readonly string[]
  readonly when?: readonly Condition[]
  readonly marks: ConfigMark
  readonly on: 'receiver' | 'result'
}

export interface SemanticsSpec {
  /** calls that never return (abort(), process.exit()) */
  readonly noReturn?: readonly string[]
  /** calls whose result carries none of their inputs' data (len(), isinstance()) */
  readonly cleanCalls?: readonly string[]
  /** methods that store their arguments into the receiver (append, push, put(k, v)) */
  readonly collectionWrites?: ReadonlyArray<{ readonly call: readonly string[]; readonly key?: number; readonly value?: number }>
  /** methods that read one key of the receiver (`get(k)`) */
  readonly collectionReads?: ReadonlyArray<{ readonly call: readonly string[]; readonly key: number }>
  /** calls whose callbacks do not receive the receiver's data (`promise.catch`, `emitter.on`) */
  readonly opaqueCallbacks?: readonly string[]
  /** calls whose result holds only what their callback returns for each element (`list.map(fn)`) */
  readonly mappers?: readonly string[]
  /** calls that return their first argument, a function, with another calling convention (`util.promisify(fn)`): calling the result calls it */
  readonly functionWrappers?: readonly string[]
  /** calls that fill a template (`"x{}".format(a)`, `String.format("x%s", a)`): the result starts like it */
  readonly formatters?: ReadonlyArray<{ readonly call: readonly string[]; readonly template: 'receiver' | number; readonly placeholder: string }>
  /** parsers whose result is a view of their first argument (see ViewSpec) */
  readonly views?: readonly ViewSpec[]
  /** calls whose result, as the template of a format operator, escapes what is formatted into it (`Markup("<b>%s</b>") % x`) */
  readonly escapingTemplates?: ReadonlyArray<{ readonly call: readonly string[]; readonly cleans: readonly SinkKind[]; readonly note: string }>
  readonly configurations?: readonly ConfigurationSpec[]
  /**
   * Objects inherit through a prototype that a property name reaches (`o["__proto__"]`): writes
   * under a computed key, and `merges` of untrusted objects into a target (`Object.assign`), are
   * prototype-pollution sinks unless the target came from a `nullPrototype` call given `null`.
   */
  readonly prototypeWrites?: { readonly merges: readonly string[]; readonly nullPrototype: readonly string[] }
  /** methods that run a regular expression on a text, and where each of the two is (redos.ts) */
  readonly regexRuns?: readonly RegexRunSpec[]
}

export interface RegexRunSpec {
  readonly call: readonly string[]
  readonly regex: 'receiver' | number
  readonly text: 'receiver' | number
}

export interface LanguageSpec {
  /** the name used in rule ids: dataflow.<name>.<category> is derived from the file's language */
  readonly name: string
  readonly languages: readonly CodeLanguage[]
  readonly syntax: SyntaxSpec
  readonly sources: readonly SourceSpec[]
  readonly sinks: readonly SinkSpec[]
  readonly sanitizers: readonly SanitizerSpec[]
  readonly markers?: readonly MarkerSpec[]
  readonly guards: readonly GuardSpec[]
  readonly rejections?: readonly RejectionSpec[]
  readonly semantics: SemanticsSpec
  /**
   * Words one of which a file must contain to hold a source (a cheap filter before parsing);
   * files without any are only read when code that has one calls into them.
   */
  readonly sourceWords: readonly string[]
}
