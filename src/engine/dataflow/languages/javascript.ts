/**
 * JavaScript and TypeScript (JSX and TSX too) for the data-flow engine: the tree-sitter node
 * kinds of both grammars, and the sources (Express, Koa, Fastify, NestJS, Next.js route
 * handlers, process.argv), sinks, sanitizers and guards of Node.js and its common libraries.
 */
import type { LanguageSpec, NodeRule, SinkSpec, SourceSpec } from '../spec.ts'
import { WEAK_HASHER } from '../passwords.ts'
import { allowlistReplacements, credentialChecks, HOST_DECIDES, quoteEscapes, rejections } from './validation.ts'

const FUNCTION = { as: 'function', name: 'name', params: 'parameters', singleParam: 'parameter', body: 'body', decorators: 'decorator' } as const
const PARAM = { as: 'param', target: 'pattern', type: 'type', default: 'value', decorators: 'decorator', property: { kinds: ['accessibility_modifier'] } } as const
const WRAPPER = { as: 'transparent', inner: { nth: 0 } } as const

const nodes: Record<string, NodeRule> = {
  program: { as: 'block' },
  statement_block: { as: 'block' },
  class_static_block: { as: 'block', body: 'body' },
  comment: { as: 'ignore' },
  empty_statement: { as: 'ignore' },
  debugger_statement: { as: 'ignore' },
  hash_bang_line: { as: 'ignore' },
  decorator: { as: 'ignore' },
  type_annotation: { as: 'ignore' },
  type_arguments: { as: 'ignore' },
  type_parameters: { as: 'ignore' },
  type_alias_declaration: { as: 'ignore' },
  interface_declaration: { as: 'ignore' },
  enum_declaration: { as: 'ignore' },
  ambient_declaration: { as: 'ignore' },
  abstract_method_signature: { as: 'ignore' },
  method_signature: { as: 'ignore' },
  index_signature: { as: 'ignore' },
  function_signature: { as: 'ignore' },
  accessibility_modifier: { as: 'ignore' },
  override_modifier: { as: 'ignore' },
  update_expression: { as: 'ignore' },
  expression_statement: { as: 'transparent' },
  parenthesized_expression: WRAPPER,
  sequence_expression: { as: 'comma' },
  await_expression: WRAPPER,
  as_expression: WRAPPER,
  satisfies_expression: WRAPPER,
  non_null_expression: WRAPPER,
  type_assertion: { as: 'transparent', inner: { nth: 1 } },
  labeled_statement: { as: 'block', body: 'body' },
  lexical_declaration: { as: 'declaration', declarators: { kinds: ['variable_declarator'] } },
  variable_declaration: { as: 'declaration', declarators: { kinds: ['variable_declarator'] } },
  variable_declarator: { as: 'declarator', target: 'name', value: 'value' },
  if_statement: { as: 'if', test: 'condition', then: 'consequence', else: 'alternative' },
  else_clause: { as: 'else' },
  for_statement: { as: 'for', init: 'initializer', test: 'condition', update: 'increment', body: 'body' },
  for_in_statement: { as: 'foreach', target: 'left', iterable: 'right', body: 'body' },
  while_statement: { as: 'while', test: 'condition', body: 'body' },
  do_statement: { as: 'do', test: 'condition', body: 'body' },
  return_statement: { as: 'return' },
  throw_statement: { as: 'throw' },
  break_statement: { as: 'break' },
  continue_statement: { as: 'continue' },
  try_statement: { as: 'try', body: 'body', handlers: { kinds: ['catch_clause'] }, finally: { kinds: ['finally_clause'] } },
  catch_clause: { as: 'catch', binding: 'parameter', body: 'body' },
  finally_clause: { as: 'block', body: 'body' },
  switch_statement: { as: 'switch', value: 'value', cases: { kinds: ['switch_case', 'switch_default'], in: 'body' } },
  switch_case: { as: 'case', test: 'value', body: 'body', fallsThrough: true },
  switch_default: { as: 'case', body: 'body', fallsThrough: true },
  function_declaration: FUNCTION,
  generator_function_declaration: FUNCTION,
  function_expression: FUNCTION,
  function: FUNCTION,
  generator_function: FUNCTION,
  arrow_function: FUNCTION,
  method_definition: FUNCTION,
  class_declaration: { as: 'class', name: 'name', body: 'body', superclasses: { kinds: ['class_heritage'] }, decorators: 'decorator' },
  abstract_class_declaration: { as: 'class', name: 'name', body: 'body', superclasses: { kinds: ['class_heritage'] }, decorators: 'decorator' },
  class: { as: 'class', name: 'name', body: 'body', superclasses: { kinds: ['class_heritage'] }, decorators: 'decorator' },
  field_definition: { as: 'field', name: 'property', value: 'value' },
  public_field_definition: { as: 'field', name: 'name', value: 'value', type: 'type' },
  export_statement: { as: 'export', declaration: 'declaration', value: 'value', specifiers: { kinds: ['export_specifier'], in: { kinds: ['export_clause'] } }, source: 'source' },
  export_specifier: { as: 'export-specifier', name: 'name', alias: 'alias' },
  import_statement: { as: 'import-es', source: 'source', clause: { kinds: ['import_clause'] } },
  named_imports: { as: 'import-named', specifiers: { kinds: ['import_specifier'] } },
  import_specifier: { as: 'import-alias', name: 'name', alias: 'alias' },
  namespace_import: { as: 'import-namespace', name: { nth: 0 } },
  identifier: { as: 'name' },
  type_identifier: { as: 'name' },
  this: { as: 'this' },
  string: { as: 'string' },
  template_string: { as: 'string', interpolation: ['template_substitution'] },
  regex: { as: 'literal', value: 'string' },
  number: { as: 'literal', value: 'number' },
  true: { as: 'literal', value: 'true' },
  false: { as: 'literal', value: 'false' },
  null: { as: 'literal', value: 'null' },
  undefined: { as: 'literal', value: 'null' },
  member_expression: { as: 'member', object: 'object', property: 'property' },
  subscript_expression: { as: 'index', object: 'object', index: 'index' },
  call_expression: { as: 'call', callee: 'function', args: 'arguments' },
  new_expression: { as: 'new', callee: 'constructor', args: 'arguments' },
  binary_expression: { as: 'binary', left: 'left', right: 'right', operator: 'operator' },
  unary_expression: { as: 'unary', operand: 'argument', operator: 'operator' },
  assignment_expression: { as: 'assign', target: 'left', value: 'right' },
  augmented_assignment_expression: { as: 'assign', target: 'left', value: 'right', operator: 'operator' },
  ternary_expression: { as: 'conditional', test: 'condition', then: 'consequence', else: 'alternative' },
  array: { as: 'list' },
  object: { as: 'dict' },
  pair: { as: 'pair', key: 'key', value: 'value' },
  shorthand_property_identifier: { as: 'shorthand' },
  spread_element: { as: 'spread', value: { nth: 0 } },
  object_pattern: { as: 'object-pattern' },
  array_pattern: { as: 'tuple-pattern' },
  pair_pattern: { as: 'pair-pattern', key: 'key', value: 'value' },
  shorthand_property_identifier_pattern: { as: 'shorthand' },
  rest_pattern: { as: 'rest-pattern', target: { nth: 0 } },
  assignment_pattern: { as: 'default-pattern', target: 'left', value: 'right' },
  object_assignment_pattern: { as: 'default-pattern', target: 'left', value: 'right' },
  required_parameter: PARAM,
  optional_parameter: PARAM,
}

const REQ = '{req,request}'
const RES = '{res,response,reply}'

const sources: SourceSpec[] = [
  // Express, Fastify, Koa (`ctx`, `ctx.request`), Next.js (`request.nextUrl.searchParams`).
  // Express parses query strings with qs (`?user[$ne]=x` is an object) and bodies as JSON: their
  // values can carry query operators (`structured`); path parameters, headers and cookies are strings.
  { kind: 'http-query', access: [`**.${REQ}.query`, '**.ctx.query'], structured: true },
  { kind: 'http-query', access: ['**.ctx.querystring', '**.nextUrl.searchParams', `**.${REQ}.querystring`] },
  { kind: 'http-body', access: [`**.${REQ}.body`], structured: true },
  { kind: 'http-body', access: [`**.${REQ}.rawBody`] },
  { kind: 'http-body', call: [`**.${REQ}.json`], structured: true },
  { kind: 'http-body', call: [`**.${REQ}.{formData,text,arrayBuffer,blob}`] },
  { kind: 'http-path', access: [`**.${REQ}.params`, '**.ctx.params'] },
  { kind: 'http-header', access: [`**.${REQ}.headers`, '**.ctx.headers', '**.ctx.header'] },
  { kind: 'http-header', call: [`**.${REQ}.{get,header}`, '**.ctx.get'] },
  { kind: 'http-cookie', access: [`**.${REQ}.cookies`, `**.${REQ}.signedCookies`] },
  { kind: 'http-cookie', call: ['**.ctx.cookies.get'] },
  { kind: 'http-file', access: [`**.${REQ}.file`, `**.${REQ}.files`] },
  { kind: 'http-request', access: [`**.${REQ}.originalUrl`, `**.${REQ}.url`, '**.ctx.url', '**.ctx.href'] },
  // NestJS parameter decorators.
  { kind: 'http-query', param: { decorators: ['Query'] }, label: '@Query() parameter', structured: true },
  { kind: 'http-body', param: { decorators: ['Body'] }, label: '@Body() parameter', structured: true },
  { kind: 'http-path', param: { decorators: ['Param'] }, label: '@Param() parameter' },
  { kind: 'http-header', param: { decorators: ['Headers'] }, label: '@Headers() parameter' },
  { kind: 'http-cookie', param: { decorators: ['Cookies'] }, label: '@Cookies() parameter' },
  { kind: 'http-file', param: { decorators: ['UploadedFile', 'UploadedFiles'] }, label: 'uploaded file parameter' },
  // Next.js route handlers: `export async function GET(request, { params })`.
  { kind: 'http-path', param: { functionNames: ['{GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS}'], index: 1, fileMatches: '(^|/)route\\.[cm]?[jt]sx?$' }, label: 'route segment parameters' },
  { kind: 'cli-args', access: ['process.argv'] },
  { kind: 'environment', access: ['process.env'] },
  { kind: 'file-content', call: ['{fs,node:fs}.readFileSync', '{fs/promises,node:fs/promises,fs.promises}.readFile'] },
  // Math.random is not cryptographic (crypto.randomBytes / randomInt / randomUUID /
  // getRandomValues are): its values only count where predictability matters (sink kind randomness).
  { kind: 'weak-random', call: ['Math.random', '{lodash,underscore,_}.{random,sample,sampleSize,shuffle}'], label: 'Math.random()' },
]

const FS = '{fs,node:fs,fs-extra,fs/promises,node:fs/promises,fs.promises}'
const NOSQL_FILTER = [{ index: 0, shallow: true }, { index: 0, field: '$where' }, { index: 0, structuredFields: true }]
const FIXED_URL = '^(?:[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]+/|/(?!/))'
const LOG_METHODS = '{log,info,warn,error,debug,trace,fatal}'
/**
 * `s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')`: a global class holding the quantifier and grouping
 * metacharacters, each match replaced by itself behind a backslash (the MDN escapeRegExp).
 */
const REGEX_METACHARACTER_CLASS = String.raw`^/\[(?=[^\]]*\*)(?=[^\]]*\+)(?=[^\]]*\?)(?=[^\]]*\()(?=[^\]]*\|).*\]/g[imsuy]*$`
const REGEX_ESCAPE_REPLACEMENT = String.raw`^(['"${'`'}])\\\\\$&\1$`

const sinks: SinkSpec[] = [
  {
    kind: 'sql',
    call: ['**.{query,execute}', '**.raw', '**.{$queryRawUnsafe,$executeRawUnsafe}', '**.{queryRaw,whereRaw,havingRaw,orderByRaw}'],
    // Database clients are objects; a plain `execute(...)` is some other library's function.
    when: [{ method: true }],
    args: [{ index: 0 }],
    note: 'SQL query text',
  },
  {
    kind: 'nosql',
    call: ['**.{find,findOne,findOneAndUpdate,findOneAndDelete,findOneAndReplace,updateOne,updateMany,deleteOne,deleteMany,countDocuments,aggregate}'],
    // The whole filter, `$where` code, or a field's value from a source that can hold objects.
    args: NOSQL_FILTER,
    // `{ where: ... }` is an SQL ORM's options object (Sequelize, TypeORM), not a MongoDB filter.
    safeWhen: [{ option: 'where', optionsIndex: 0 }],
    note: 'MongoDB query filter',
  },
  // The legacy driver and Mongoose API (`update(filter, doc, { multi: true })`, `remove(filter)`):
  // names other objects use too, so only in files that use a MongoDB client.
  {
    kind: 'nosql',
    call: ['**.{update,remove,count,findAndModify,findAndRemove}'],
    when: [{ imports: ['mongodb', 'mongoose', 'monk', 'mongojs'] }, { method: true }],
    args: NOSQL_FILTER,
    safeWhen: [{ option: 'where', optionsIndex: 0 }],
    note: 'MongoDB query filter',
  },
  { kind: 'command', call: ['{child_process,node:child_process}.{exec,execSync}', 'shelljs.exec', '**.shell.exec', 'execa.command', 'execa.commandSync'], args: [{ index: 0 }], note: 'shell command' },
  {
    kind: 'command',
    call: ['{child_process,node:child_process}.{spawn,spawnSync,execFile,execFileSync,fork}', 'execa', 'execa.execa', 'execa.sync'],
    args: [{ index: 0 }],
    note: 'program to run',
    programName: true,
  },
  {
    kind: 'command',
    call: ['{child_process,node:child_process}.{spawn,spawnSync,execFile,execFileSync}'],
    when: [{ keyword: 'shell', equals: true, optionsIndex: 2 }],
    args: [{ index: 0 }],
    note: 'shell command',
  },
  {
    kind: 'command',
    call: ['{child_process,node:child_process}.{spawn,spawnSync,execFile,execFileSync}'],
    when: [{ keyword: 'shell', equals: true, optionsIndex: 2 }],
    args: [{ index: 1 }],
    note: 'shell command arguments',
  },
  { kind: 'code', call: ['eval', 'vm.{runInContext,runInNewContext,runInThisContext,compileFunction,Script}', 'node:vm.{runInContext,runInNewContext,runInThisContext,Script}', 'setTimeout', 'setInterval'], args: [{ index: 0 }], note: 'code to evaluate', sources: ['remote', 'local'] },
  // `new Function(a, b, body)`: parameter names are code too.
  { kind: 'code', call: ['Function'], note: 'function source', sources: ['remote', 'local'] },
  {
    kind: 'template',
    call: ['ejs.{render,compile}', 'pug.{render,compile}', '{handlebars,Handlebars}.compile', 'nunjucks.renderString', '{lodash,_}.template', 'lodash.template', 'dot.template', 'doT.template', 'mustache.render', 'Mustache.render', 'underscore.template'],
    args: [{ index: 0 }],
    note: 'template source',
  },
  {
    kind: 'path',
    call: [
      `${FS}.{readFile,readFileSync,writeFile,writeFileSync,appendFile,appendFileSync,createReadStream,createWriteStream,unlink,unlinkSync,rm,rmSync,rmdir,readdir,readdirSync,open,openSync,mkdir,mkdirSync,copyFile,copyFileSync,rename,renameSync,access,stat,statSync,remove,removeSync}`,
    ],
    args: [{ index: 0 }],
    note: 'file path',
  },
  { kind: 'path', call: [`**.${RES}.{sendFile,download,attachment}`], args: [{ index: 0 }], safeWhen: [{ option: 'root', optionsIndex: 1 }], note: 'file sent' },
  {
    kind: 'url',
    call: ['fetch', 'axios', 'axios.{get,post,put,delete,patch,head,request,options}', 'got', 'got.{get,post,put,delete,patch,head,stream}', '{http,https,node:http,node:https}.{get,request}', 'needle', 'needle.{get,post,request}', 'superagent.{get,post,put,delete}', 'node-fetch', 'undici.{request,fetch}'],
    args: [{ index: 0 }],
    note: 'request URL',
    safePrefix: FIXED_URL,
  },
  { kind: 'redirect', call: [`**.${RES}.redirect`, '**.ctx.redirect', '{NextResponse,Response}.redirect', 'next/navigation.redirect', `**.${RES}.location`], args: [{ index: 0 }, { index: 1 }], note: 'redirect target', safePrefix: FIXED_URL },
  { kind: 'html', call: [`**.${RES}.{send,write,end}`, `**.${RES}.*().{send,write,end}`], args: [{ index: 0, shallow: true }], note: 'HTTP response body' },
  { kind: 'html', assign: ['**.ctx.body', '**.ctx.response.body'], note: 'HTTP response body' },
  { kind: 'ldap', call: ['**.search'], when: [{ imports: ['ldapjs'] }], args: [{ index: 1, field: 'filter' }, { index: 1, shallow: true }], note: 'LDAP search filter' },
  { kind: 'xpath', call: ['xpath.{select,select1,evaluate,parse,useNamespaces}', '**.evaluate'], when: [{ imports: ['xpath'] }], args: [{ index: 0 }], note: 'XPath expression' },
  // libxmljs documents and their elements: `doc.get(expr)`, `doc.find(expr)`, `doc.root().find(expr)`.
  {
    kind: 'xpath',
    call: ['{libxmljs,libxmljs2}.{parseXml,parseXmlString,parseHtml,parseHtmlString}().{get,find}', '{libxmljs,libxmljs2}.{parseXml,parseXmlString}().{root,get}().{get,find}'],
    args: [{ index: 0 }],
    note: 'XPath expression',
  },
  {
    kind: 'deserialization',
    call: ['node-serialize.unserialize', 'serialize-to-js.deserialize', 'funcster.deepDeserialize', 'cryo.parse'],
    when: [{ imports: ['node-serialize', 'serialize-to-js', 'funcster', 'cryo'] }],
    args: [{ index: 0 }],
    note: 'serialized data',
    sources: ['remote', 'local'],
  },
  // js-yaml before 4 builds functions and regexps from tags in `load`; since 4 its default schema
  // holds only data. The version is the repository's package.json (unknown: the old one); a schema
  // extended with js-yaml-js-types (a file importing it and passing a schema) executes code in any version.
  { kind: 'deserialization', call: ['js-yaml.{load,loadAll}'], when: [{ imports: ['js-yaml'] }], safeWhen: [{ dependency: { name: 'js-yaml', atLeast: 4 } }], args: [{ index: 0 }], note: 'YAML document', sources: ['remote', 'local'] },
  {
    kind: 'deserialization',
    call: ['js-yaml.{load,loadAll}'],
    when: [{ imports: ['js-yaml-js-types'] }, { dependency: { name: 'js-yaml', atLeast: 4 } }, { argText: { index: 1, matches: 'schema' } }],
    args: [{ index: 0 }],
    note: 'YAML document (schema with code types)',
    sources: ['remote', 'local'],
  },
  {
    kind: 'xml',
    call: ['{libxmljs,libxmljs2}.{parseXml,parseXmlString,parseXmlAsync}'],
    when: [{ keyword: 'noent', equals: true, optionsIndex: 1 }],
    args: [{ index: 0 }],
    note: 'XML document (external entities enabled)',
  },
  { kind: 'header', call: [`**.${RES}.{setHeader,set,header,append,writeHead}`, '**.ctx.set', `**.${RES}.headers.{set,append}`], args: [{ index: 1 }], note: 'response header value', sources: ['remote'] },
  { kind: 'header', call: [`**.${RES}.cookie`, '**.ctx.cookies.set', '**.cookies.set'], args: [{ index: 1 }], note: 'cookie value', sources: ['remote'] },
  { kind: 'session', assign: ['**.session.*', '**.session[]'], assignKey: true, note: 'session attribute', sources: ['remote'] },
  // Predictable random values as cookies or session values (names: secret-names.ts).
  { kind: 'randomness', call: [`**.${RES}.cookie`, '**.ctx.cookies.set', '**.cookies.set'], args: [{ index: 1 }], note: 'cookie value', sources: ['prng'] },
  { kind: 'randomness', assign: ['**.session.*', '**.session[]'], note: 'session value', sources: ['prng'] },
  { kind: 'randomness', assign: ['document.cookie', '**.document.cookie'], note: 'cookie', sources: ['prng'] },
  { kind: 'log', call: [`console.${LOG_METHODS}`, `**.{logger,log,LOGGER,winston,pino,bunyan}.${LOG_METHODS}`, `{logger,log}.${LOG_METHODS}`], note: 'log message', sources: ['remote'] },
  // Passwords (passwords.ts) given to a broken hash: a createHash('md5') object, or an MD5/SHA-1 package.
  { kind: 'weak-hash', call: [`${WEAK_HASHER}.update`], args: [{ index: 0 }], note: 'hashed data', sources: ['password'] },
  {
    kind: 'weak-hash',
    call: ['{md5,sha1,js-md5,js-sha1,blueimp-md5,md5-hex,crypto-js/md5,crypto-js/sha1}', '{crypto-js,CryptoJS}.{MD5,SHA1}', '{js-md5,js-sha1}.{hex,array,digest,update}'],
    args: [{ index: 0 }],
    note: 'hashed data',
    sources: ['password'],
  },
  // A pattern compiled from untrusted text (nested quantifiers: exponential matching time).
  // match/search/matchAll turn a string argument into a RegExp; split/replace/includes do not.
  { kind: 'regex', call: ['RegExp'], args: [{ index: 0 }], note: 'regular expression pattern' },
  { kind: 'regex', call: ['**.{match,matchAll,search}'], when: [{ method: true }], safeWhen: [{ imports: ['ldapjs'] }], args: [{ index: 0, shallow: true }], note: 'regular expression pattern (a string argument is compiled)' },
]

export const JAVASCRIPT_SPEC: LanguageSpec = {
  name: 'javascript',
  languages: ['javascript', 'typescript', 'tsx'],
  syntax: {
    nodes,
    decoratorKinds: ['decorator'],
    requireFunctions: ['require'],
    moduleInterop: {
      namespace: ['__importStar', 'tslib.__importStar', 'tslib_1.__importStar', '_interopRequireWildcard', '__toESM'],
      default: ['__importDefault', 'tslib.__importDefault', 'tslib_1.__importDefault', '_interopRequireDefault'],
    },
    constructorNames: ['constructor'],
    commonJsExports: true,
    argumentsObject: 'arguments',
    moduleResolution: 'node',
    operators: {
      and: ['&&'],
      or: ['||'],
      not: ['!'],
      equal: ['==', '==='],
      notEqual: ['!=', '!=='],
      clean: ['<', '>', '<=', '>=', 'instanceof', 'in', '-', '*', '/', '%', '**', '&', '|', '^', '<<', '>>', '>>>'],
      coalesce: ['??'],
    },
  },
  sources,
  sinks,
  sanitizers: [
    { call: ['Number', 'parseInt', 'parseFloat', 'Number.parseInt', 'Number.parseFloat', 'Boolean', 'BigInt', 'Math.*', 'Date.parse', 'validator.toInt', 'validator.toFloat', 'validator.toBoolean'], cleans: 'all', note: 'numeric conversion' },
    { call: ['react-dom/server.{renderToString,renderToStaticMarkup,renderToPipeableStream}'], cleans: ['html'], note: 'React rendering (escapes text)' },
    {
      call: ['{pug,ejs,handlebars,Handlebars,nunjucks,dot,doT,underscore,lodash,_}.{compile,template}()', '{ejs,pug,mustache,Mustache,nunjucks}.{render,renderFile}', 'nunjucks.renderString'],
      cleans: ['html'],
      note: 'auto-escaping template',
    },
    { call: ['escape-html', 'escapeHtml', 'he.{encode,escape}', '{lodash,_}.escape', 'lodash.escape', 'validator.escape', '{DOMPurify,dompurify}.sanitize', 'sanitize-html', 'xss', 'xss.filterXSS', 'filterXSS', 'html-escaper.escape', 'encode-html'], cleans: ['html'], note: 'HTML escaping' },
    { call: ['encodeURIComponent', 'querystring.escape', 'encodeURI'], cleans: ['html', 'header', 'log', 'redirect', 'url', 'path'], note: 'URL encoding' },
    { call: ['shell-quote.quote', 'shell-escape', 'shellescape', 'shlex.quote'], cleans: ['command'], note: 'shell quoting' },
    { call: ['{path,node:path}.basename', 'sanitize-filename'], cleans: ['path'], note: 'file name without directories' },
    { call: ['**.{escape,escapeId,escapeLiteral,escapeIdentifier}', 'sqlstring.{escape,escapeId}', 'pg-format', 'pg-format.literal'], cleans: ['sql'], note: 'SQL escaping' },
    { call: ['String', 'mongo-sanitize', 'express-mongo-sanitize.sanitize', '**.sanitizeFilter', '**.toString'], cleans: ['nosql'], note: 'no query operators in a string' },
    { call: ['ldap-escape.filter', 'ldapEscape.filter', '**.escapeFilter'], cleans: ['ldap'], note: 'LDAP filter escaping' },
    { call: ['**.{replace,replaceAll}'], cleans: ['header', 'log'], when: [{ argText: { index: 0, matches: '\\\\r|\\\\n' } }], note: 'CR/LF removal' },
    // Its result is a JavaScript literal: quotes and backslashes escaped, so code built around it reads it as data.
    { call: ['JSON.stringify'], cleans: ['log', 'header', 'code'], note: 'JSON encoding' },
    { call: ['JSON.parse'], cleans: ['code'], note: 'data-only parsing' },
    { call: ['escape-string-regexp', '{lodash,_}.escapeRegExp', 'lodash.escaperegexp', 'lodash/escapeRegExp', 'escapeRegExp', 'escapeRegex', '**.escapeRegExp'], cleans: ['regex'], note: 'regex metacharacters escaped' },
    { call: ['**.{replace,replaceAll}'], cleans: ['regex'], when: [{ argText: { index: 0, matches: REGEX_METACHARACTER_CLASS } }, { argText: { index: 1, matches: REGEX_ESCAPE_REPLACEMENT } }], note: 'regex metacharacters escaped' },
    // A RegExp object (its pattern was checked where it was built) is no pattern text any more.
    { call: ['RegExp'], cleans: ['regex'], note: 'compiled regular expression' },
    // Claims of a token whose signature was checked were issued by the server, not the caller
    // (`jwt.decode` checks nothing and stays tainted), unless the options accept unsigned tokens
    // or mix HMAC with public-key algorithms (the public key then forges HMAC signatures).
    {
      call: ['jsonwebtoken.verify', 'jose.jwtVerify', '**.jwtVerify'],
      cleans: ['session'],
      when: [{ argText: { index: 2, matches: String.raw`^(?![\s\S]*['"\`]none['"\`])(?![\s\S]*HS\d{3}[\s\S]*[REP]S\d{3})(?![\s\S]*[REP]S\d{3}[\s\S]*HS\d{3})`, orMissing: true } }],
      note: 'signature-verified token',
    },
    ...quoteEscapes(['**.{replace,replaceAll}']),
    ...allowlistReplacements(['**.{replace,replaceAll}']),
  ],
  markers: [{ call: ['{path,node:path}.{resolve,normalize,join}', `${FS}.{realpath,realpathSync}`], marks: 'normalized-path', note: 'path normalization' }],
  guards: [
    { call: ['**.{includes,has}'], subject: { arg: 0 }, cleans: 'all', note: 'allowlist check' },
    { call: ['**.startsWith'], subject: 'receiver', cleans: ['path'], requires: 'normalized-path', note: 'path containment check' },
    { call: ['validator.{isInt,isNumeric,isUUID,isEmail,isAlphanumeric,isAlpha,isMongoId,isBoolean,isDate,isHexadecimal}', 'Number.{isInteger,isSafeInteger,isFinite}', 'isFinite'], subject: { arg: 0 }, cleans: 'all', note: 'format validation' },
    { call: ['**.test'], subject: { arg: 0 }, cleans: 'all', when: [{ receiverText: '^/\\^.*\\$/[a-z]*$' }], note: 'format validation (anchored pattern)' },
    ...credentialChecks(),
    // An own property of the source object, or one the target already has, is no inherited
    // `__proto__` / `constructor` (prototype-pollution fixes check this before writing).
    { call: ['**.hasOwnProperty'], subject: { arg: 0 }, cleans: ['prototype'], note: 'own-property check' },
    { call: ['**.hasOwnProperty.call', 'Object.hasOwn', 'Reflect.has'], subject: { arg: 1 }, cleans: ['prototype'], note: 'own-property check' },
    // The anchored pattern kept in a constant (`const NAME = /^[a-z]+$/`).
    { call: ['**.test'], subject: { arg: 0 }, cleans: 'all', when: [{ receiverConstant: '^/\\^.*\\$/[a-z]*$' }], note: 'format validation (anchored pattern)' },
  ],
  semantics: {
    noReturn: ['process.exit'],
    cleanCalls: ['Array.isArray', '**.hasOwnProperty', '**.{indexOf,lastIndexOf,findIndex}', '**.test', '**.{startsWith,endsWith,includes,has}', '**.localeCompare', 'isNaN', 'Number.isNaN', 'typeof', '**.status', '**.sendStatus', 'require.resolve'],
    collectionWrites: [
      { call: ['**.{push,unshift,add}'] },
      { call: ['**.set', '**.append'], key: 0, value: 1 },
    ],
    collectionReads: [{ call: ['**.get', '**.getAll'], key: 0 }],
    mappers: ['**.{map,flatMap}'],
    functionWrappers: ['{util,node:util}.{promisify,callbackify,deprecate}', '{pify,es6-promisify}', 'es6-promisify.promisify', '{bluebird,Bluebird}.{promisify,method}'],
    opaqueCallbacks: ['**.{catch,finally,on,once,addListener,addEventListener}', 'setTimeout', 'setInterval', 'setImmediate', 'process.nextTick', 'queueMicrotask'],
    formatters: [
      { call: ['util.format', 'node:util.format'], template: 0, placeholder: '%' },
      // `new URL('/path', base)`: a relative first argument keeps the base's host.
      { call: ['URL'], template: 0, placeholder: '\u0000' },
    ],
    views: [{ call: ['URL', '{url,node:url}.parse'], components: { hostname: HOST_DECIDES, host: HOST_DECIDES, origin: HOST_DECIDES } }],
    // Spread (`{ ...src }`) defines own properties and never reaches a prototype: no merge here.
    prototypeWrites: { merges: ['Object.assign'], nullPrototype: ['Object.create'] },
    regexRuns: [
      { call: ['**.{test,exec}'], regex: 'receiver', text: 0 },
      { call: ['**.{match,matchAll,replace,replaceAll,split,search}'], regex: 0, text: 'receiver' },
    ],
  },
  rejections: rejections({ call: ['**.includes'] }),
  sourceWords: ['random', 'sample', 'shuffle', 'req', 'request', 'ctx', 'argv', 'process.env', 'readFile', 'Query(', 'Body(', 'Param(', 'Headers(', 'Cookies(', 'UploadedFile', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
}
