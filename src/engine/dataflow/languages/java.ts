/**
 * Java for the data-flow engine: the tree-sitter-java node kinds, and the sources (Spring and
 * JAX-RS parameter annotations, servlet requests, `main(String[] args)`), sinks, sanitizers and
 * guards of the JDK, Jakarta EE, Spring and the common XML, LDAP and template libraries.
 * Declared types name the API a variable is (`Statement stmt` makes `stmt.executeQuery` a
 * `Statement.executeQuery` call) and resolve calls to classes of the same project.
 */
import type { LanguageSpec, NodeRule, SinkSpec, SourceSpec } from '../spec.ts'
import { WEAK_HASHER } from '../passwords.ts'
import { allowlistReplacements, credentialChecks, HOST_DECIDES, quoteEscapes, rejections } from './validation.ts'

const ANNOTATIONS = { kinds: ['annotation', 'marker_annotation'], in: { kinds: ['modifiers'] } } as const
const METHOD = { as: 'function', name: 'name', params: 'parameters', body: 'body', decorators: ANNOTATIONS, modifiers: { kinds: ['modifiers'] } } as const
const CLASS = { as: 'class', name: 'name', body: 'body', superclasses: { kinds: ['superclass', 'super_interfaces', 'extends_interfaces'] }, decorators: ANNOTATIONS } as const

const nodes: Record<string, NodeRule> = {
  program: { as: 'block' },
  block: { as: 'block' },
  constructor_body: { as: 'block' },
  finally_clause: { as: 'block' },
  resource_specification: { as: 'block' },
  synchronized_statement: { as: 'block', body: 'body' },
  labeled_statement: { as: 'block' },
  line_comment: { as: 'ignore' },
  block_comment: { as: 'ignore' },
  package_declaration: { as: 'ignore' },
  modifiers: { as: 'ignore' },
  annotation: { as: 'ignore' },
  marker_annotation: { as: 'ignore' },
  type_arguments: { as: 'ignore' },
  type_parameters: { as: 'ignore' },
  dimensions: { as: 'ignore' },
  throws: { as: 'ignore' },
  update_expression: { as: 'ignore' },
  instanceof_expression: { as: 'ignore' },
  class_literal: { as: 'ignore' },
  enum_declaration: { as: 'ignore' },
  annotation_type_declaration: { as: 'ignore' },
  expression_statement: { as: 'transparent' },
  parenthesized_expression: { as: 'transparent' },
  cast_expression: { as: 'transparent', inner: 'value' },
  generic_type: { as: 'transparent' },
  import_declaration: { as: 'import-path', path: { nth: 0 } },
  class_declaration: CLASS,
  record_declaration: CLASS,
  interface_declaration: { ...CLASS, interface: true },
  field_declaration: { as: 'field', declarators: 'declarator', type: 'type', modifiers: { kinds: ['modifiers'] } },
  method_declaration: METHOD,
  constructor_declaration: METHOD,
  lambda_expression: { as: 'function', params: 'parameters', body: 'body' },
  formal_parameter: { as: 'param', target: 'name', type: 'type', decorators: ANNOTATIONS },
  spread_parameter: { as: 'param', target: { kinds: ['identifier'], in: { kinds: ['variable_declarator'] } }, rest: 'list', decorators: ANNOTATIONS },
  inferred_parameters: { as: 'tuple-pattern' },
  local_variable_declaration: { as: 'declaration', declarators: 'declarator', type: 'type' },
  variable_declarator: { as: 'declarator', target: 'name', value: 'value' },
  resource: { as: 'declarator', target: 'name', value: 'value' },
  assignment_expression: { as: 'assign', target: 'left', value: 'right', operator: 'operator' },
  if_statement: { as: 'if', test: 'condition', then: 'consequence', else: 'alternative' },
  while_statement: { as: 'while', test: 'condition', body: 'body' },
  do_statement: { as: 'do', test: 'condition', body: 'body' },
  for_statement: { as: 'for', init: 'init', test: 'condition', update: 'update', body: 'body' },
  enhanced_for_statement: { as: 'foreach', target: 'name', iterable: 'value', body: 'body', type: 'type' },
  return_statement: { as: 'return' },
  throw_statement: { as: 'throw' },
  break_statement: { as: 'break' },
  continue_statement: { as: 'continue' },
  try_statement: { as: 'try', body: 'body', handlers: { kinds: ['catch_clause'] }, finally: { kinds: ['finally_clause'] } },
  try_with_resources_statement: { as: 'try', body: 'body', handlers: { kinds: ['catch_clause'] }, finally: { kinds: ['finally_clause'] }, resources: 'resources' },
  catch_clause: { as: 'catch', body: 'body' },
  switch_expression: { as: 'switch', value: 'condition', cases: { kinds: ['switch_block_statement_group', 'switch_rule'], in: 'body' } },
  switch_block_statement_group: { as: 'case', test: { kinds: ['switch_label'] }, body: { all: true, except: ['switch_label'] }, fallsThrough: true },
  switch_rule: { as: 'case', test: { kinds: ['switch_label'] }, body: { all: true, except: ['switch_label'] } },
  // the value of a case of a switch expression (lowered as the case's result)
  yield_statement: { as: 'return' },
  identifier: { as: 'name' },
  type_identifier: { as: 'name' },
  scoped_type_identifier: { as: 'name' },
  scoped_identifier: { as: 'name' },
  this: { as: 'this' },
  string_literal: { as: 'string' },
  character_literal: { as: 'literal', value: 'string' },
  decimal_integer_literal: { as: 'literal', value: 'number' },
  hex_integer_literal: { as: 'literal', value: 'number' },
  decimal_floating_point_literal: { as: 'literal', value: 'number' },
  true: { as: 'literal', value: 'true' },
  false: { as: 'literal', value: 'false' },
  null_literal: { as: 'literal', value: 'null' },
  method_invocation: { as: 'method-call', object: 'object', name: 'name', args: 'arguments' },
  object_creation_expression: { as: 'new', callee: 'type', args: 'arguments' },
  field_access: { as: 'member', object: 'object', property: 'field' },
  array_access: { as: 'index', object: 'array', index: 'index' },
  binary_expression: { as: 'binary', left: 'left', right: 'right', operator: 'operator' },
  unary_expression: { as: 'unary', operand: 'operand', operator: 'operator' },
  ternary_expression: { as: 'conditional', test: 'condition', then: 'consequence', else: 'alternative' },
  array_initializer: { as: 'list' },
  array_creation_expression: { as: 'transparent', inner: 'value' },
}

const REQUEST = '**.{request,req,httpRequest,servletRequest,HttpServletRequest,ServletRequest,HttpServletRequestWrapper}'

const WEAK_RANDOM = '{Random,java.util.Random,SplittableRandom,java.util.SplittableRandom}'
const DRAWS = '{nextInt,nextLong,nextDouble,nextFloat,nextBoolean,nextGaussian,ints,longs,doubles}'

const sources: SourceSpec[] = [
  { kind: 'http-query', param: { decorators: ['RequestParam', 'QueryParam'] }, label: 'request parameter' },
  { kind: 'http-path', param: { decorators: ['PathVariable', 'PathParam'] }, label: 'path variable' },
  { kind: 'http-body', param: { decorators: ['RequestBody', 'FormParam', 'ModelAttribute'] }, label: 'request body' },
  { kind: 'http-header', param: { decorators: ['RequestHeader', 'HeaderParam'] }, label: 'request header' },
  { kind: 'http-cookie', param: { decorators: ['CookieValue', 'CookieParam'] }, label: 'cookie' },
  { kind: 'http-file', param: { decorators: ['RequestPart'] }, label: 'uploaded part' },
  { kind: 'http-query', call: [`${REQUEST}.{getParameter,getParameterValues,getParameterMap,getParameterNames,getQueryString}`] },
  { kind: 'http-header', call: [`${REQUEST}.{getHeader,getHeaders,getHeaderNames}`] },
  { kind: 'http-cookie', call: [`${REQUEST}.getCookies`] },
  { kind: 'http-body', call: [`${REQUEST}.{getInputStream,getReader}`] },
  { kind: 'http-request', call: [`${REQUEST}.{getPathInfo,getRequestURI,getRequestURL,getServletPath}`] },
  { kind: 'http-file', call: [`${REQUEST}.{getPart,getParts}`, '**.getSubmittedFileName', '**.getOriginalFilename'] },
  { kind: 'cli-args', param: { functionNames: ['main'], types: ['String[]', 'String'], index: 0 }, label: 'main() arguments' },
  { kind: 'environment', call: ['System.getenv'] },
  { kind: 'file-content', call: ['Files.{readString,readAllBytes,readAllLines,lines}'] },
  // Non-cryptographic generators (SecureRandom and UUID.randomUUID are not): their values only
  // count where predictability matters (sink kind randomness).
  { kind: 'weak-random', call: [`${WEAK_RANDOM}.${DRAWS}`, `${WEAK_RANDOM}().${DRAWS}`, `ThreadLocalRandom.current().${DRAWS}`, 'Math.random', 'RandomStringUtils.random*', 'RandomStringUtils.insecure().*', 'RandomUtils.next*'], label: 'java.util.Random' },
  { kind: 'weak-random', call: [`${WEAK_RANDOM}.nextBytes`, `${WEAK_RANDOM}().nextBytes`, 'ThreadLocalRandom.current().nextBytes'], fills: 0, label: 'java.util.Random' },
]

const FIXED_URL = '^(?:[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]+/|/(?!/))'
/** Environment variables the dynamic loader, a shell or a language runtime acts on. */
const ACTIVE_ENV_NAMES = '(?:PATH|LD_[A-Z_]+|DYLD_[A-Z_]+|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|IFS|PYTHONPATH|PYTHONSTARTUP|NODE_OPTIONS|PERL5OPT|PERL5LIB|RUBYOPT|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|CLASSPATH)'
/** A `NAME=value` entry whose fixed name is none of those. */
const INERT_ENV_ENTRY = `^(?!${ACTIVE_ENV_NAMES}=)[A-Za-z_][A-Za-z0-9_]*=`
/** What a stream argument looks like: its declared type, or the call that opened it. */
const STREAM = String.raw`(?:Input|Output)Stream|[Ss]tream\(\)$`
/** `Criteria.where("f")`, then bound values and further constant fields (`.is(v).and("g")`). */
const CRITERIA_CHAIN = String.raw`^(?:Criteria|new Criteria\(\))\.where\("[^"$]*"\)(?:\s*\.(?:is|ne|lt|lte|gt|gte|in|nin|all|size|exists)\((?:[^()]|\([^()]*\))*\)|\s*\.and\("[^"$]*"\))*$`
/**
 * `"['" + v.replace("'", "''") + "']"`: a prefix opening a SpEL string literal (an odd number of
 * apostrophes), one value with apostrophes doubled, and a suffix closing it.
 */
const SPEL_QUOTED = String.raw`^"[^"'\\]*(?:'[^"'\\]*'[^"'\\]*)*'"\s*\+\s*[A-Za-z_][\w.]*\.replace(?:All)?\(\s*"'"\s*,\s*"''"\s*\)\s*\+\s*"'[^"\\]*"$`
/** Receivers that are a class (a static method), a Splitter or a compiled Pattern, not a String. */
const STRING_REGEX_NOT_RECEIVER = String.raw`^(?:[a-z_][\w]*\.)*[A-Z][a-z]\w*$|Splitter|Pattern\.compile|[Pp]attern$`
const LOGGERS = '**.{logger,log,LOGGER,LOG,Logger,audit,AUDIT}.{info,warn,error,debug,trace,fatal}'

const sinks: SinkSpec[] = [
  {
    kind: 'sql',
    call: ['**.{executeQuery,executeUpdate,executeLargeUpdate,execute,addBatch,prepareStatement,prepareCall}', '**.{createQuery,createNativeQuery,createSQLQuery}'],
    args: [{ index: 0 }],
    note: 'SQL query text',
  },
  {
    kind: 'sql',
    call: ['**.{query,queryForObject,queryForList,queryForMap,queryForRowSet,update,batchUpdate}'],
    when: [{ imports: ['org.springframework.jdbc'] }],
    args: [{ index: 0 }],
    note: 'SQL query text',
  },
  { kind: 'nosql', call: ['**.{find,findOne,deleteMany,deleteOne,updateOne,updateMany,countDocuments}'], when: [{ imports: ['com.mongodb', 'org.bson'] }], args: [{ index: 0, shallow: true }], note: 'MongoDB query filter' },
  { kind: 'nosql', call: ['Filters.where', 'com.mongodb.client.model.Filters.where'], args: [{ index: 0 }], note: 'MongoDB $where code' },
  // Spring Data MongoDB: a query document parsed from JSON text (`new BasicQuery("{ f: '" + v + "' }")`).
  { kind: 'nosql', call: ['{BasicQuery,org.springframework.data.mongodb.core.query.BasicQuery}'], when: [{ imports: ['org.springframework.data.mongodb'] }], args: [{ index: 0 }, { index: 1 }], note: 'MongoDB query JSON' },
  // `exec(new String[] {"/opt/tool", arg})` runs a fixed program: only its first element counts.
  { kind: 'command', call: ['**.getRuntime().exec', 'Runtime.exec'], args: [{ index: 0, program: true }], note: 'OS command' },
  { kind: 'command', call: ['ProcessBuilder', 'java.lang.ProcessBuilder', '**.command'], args: [{ index: 0, program: true }], note: 'program to run' },
  // The environment of a started process: a caller who names a variable, or sets one the loader
  // or shell acts on (LD_PRELOAD, PATH, BASH_ENV...), runs code; a value for a fixed, inert name
  // (`"JOB_TITLE=" + title`) is only data for the program.
  { kind: 'command', call: ['**.getRuntime().exec', 'Runtime.exec'], args: [{ index: 1, elements: true }], safePrefix: INERT_ENV_ENTRY, note: 'environment of the command' },
  { kind: 'command', call: ['**.environment().{put,putIfAbsent}'], args: [{ index: 0 }], note: 'environment variable name of the process' },
  { kind: 'command', call: ['**.environment().{put,putIfAbsent}'], when: [{ argText: { index: 0, matches: `^"${ACTIVE_ENV_NAMES}"$` } }], args: [{ index: 1 }], note: 'environment variable of the process' },
  { kind: 'command', call: ['**.environment().putAll'], args: [{ index: 0 }], note: 'environment of the process' },
  { kind: 'command', call: ['ProcessBuilder'], when: [{ argText: { index: 0, matches: '^"(?:/bin/)?(?:ba|z)?sh"$|^"cmd(?:\\.exe)?"$' } }], args: [{ index: 2 }], note: 'shell command' },
  { kind: 'code', call: ['**.eval'], when: [{ imports: ['javax.script', 'jdk.nashorn', 'org.graalvm'] }], args: [{ index: 0 }], note: 'script to evaluate', sources: ['remote', 'local'] },
  // A value with its apostrophes doubled, placed inside a SpEL string literal, cannot leave it.
  { kind: 'code', call: ['**.parseExpression'], when: [{ imports: ['org.springframework.expression'] }], safeWhen: [{ argText: { index: 0, matches: SPEL_QUOTED } }], args: [{ index: 0 }], cwe: 'CWE-917', note: 'expression to evaluate' },
  { kind: 'code', call: ['**.{evaluate,parse}'], when: [{ imports: ['groovy.lang'] }], args: [{ index: 0 }], cwe: 'CWE-94', note: 'script to evaluate' },
  { kind: 'template', call: ['Velocity.evaluate', '**.evaluate'], when: [{ imports: ['org.apache.velocity'] }], args: [{ index: 3 }], note: 'template source' },
  { kind: 'template', call: ['Template', 'freemarker.template.Template'], when: [{ imports: ['freemarker'] }], args: [{ index: 1 }], note: 'template source' },
  { kind: 'template', call: ['**.process'], when: [{ imports: ['org.thymeleaf'] }], args: [{ index: 0 }], note: 'template name or source' },
  {
    kind: 'path',
    call: ['File', 'java.io.File', 'FileInputStream', 'FileOutputStream', 'FileReader', 'FileWriter', 'RandomAccessFile', 'PrintWriter', 'java.io.{FileInputStream,FileOutputStream,FileReader,FileWriter}'],
    args: [{ index: 0 }, { index: 1 }],
    note: 'file path',
  },
  {
    kind: 'path',
    call: ['Files.{readString,readAllBytes,readAllLines,lines,newInputStream,newOutputStream,newBufferedReader,newBufferedWriter,write,writeString,delete,deleteIfExists,move,createFile,createDirectories,list,walk}'],
    args: [{ index: 0 }],
    note: 'file path',
  },
  // `Files.copy(InputStream, Path)` / `(Path, OutputStream)` / `(Path, Path)`: each Path is a file
  // name; a stream argument is the data copied.
  { kind: 'path', call: ['Files.copy'], when: [{ argType: { index: 0, matches: STREAM, absent: true } }], args: [{ index: 0 }], note: 'file path' },
  { kind: 'path', call: ['Files.{copy,move}'], when: [{ argType: { index: 1, matches: STREAM, absent: true } }], args: [{ index: 1 }], note: 'file path' },
  { kind: 'url', call: ['URL', 'java.net.URL', 'HttpRequest.newBuilder', '**.uri', 'WebClient.create'], when: [{ imports: ['java.net', 'org.springframework.web'] }], args: [{ index: 0 }], note: 'request URL', safePrefix: FIXED_URL },
  { kind: 'url', call: ['**.{getForObject,getForEntity,postForObject,postForEntity,exchange,execute}'], when: [{ imports: ['org.springframework.web.client'] }], args: [{ index: 0 }], note: 'request URL', safePrefix: FIXED_URL },
  { kind: 'redirect', call: ['**.sendRedirect', 'RedirectView'], args: [{ index: 0 }], note: 'redirect target', safePrefix: FIXED_URL },
  { kind: 'html', call: ['**.getWriter().{print,println,write,append,format,printf}', '**.getOutputStream().{print,println,write}'], args: [{ index: 0 }], note: 'HTTP response body' },
  // Every value formatted into the page is written to it, not only the format string.
  { kind: 'html', call: ['**.getWriter().{format,printf}'], note: 'value formatted into the HTTP response body' },
  { kind: 'ldap', call: ['**.search'], when: [{ imports: ['javax.naming', 'org.springframework.ldap'] }], args: [{ index: 1 }], note: 'LDAP search filter' },
  { kind: 'xpath', call: ['XPath.{compile,evaluate}', 'javax.xml.xpath.XPath.{compile,evaluate}', '**.newXPath().{compile,evaluate}'], args: [{ index: 0 }], note: 'XPath expression' },
  {
    kind: 'deserialization',
    call: ['ObjectInputStream', 'java.io.ObjectInputStream', 'XMLDecoder', 'java.beans.XMLDecoder', 'SerializationUtils.deserialize', '**.fromXML'],
    args: [{ index: 0 }],
    note: 'serialized data',
    sources: ['remote', 'local'],
  },
  {
    kind: 'xml',
    call: ['DocumentBuilder.parse', '**.newDocumentBuilder().parse', 'SAXParser.parse', '**.newSAXParser().parse', 'XMLReader.parse', '**.createXMLStreamReader', 'SAXReader.read', 'SAXBuilder.build'],
    args: [{ index: 0 }],
    // The parser or the factory it came from refuses DTDs or external entities (semantics.configurations).
    safeWhen: [{ marked: 'hardened' }],
    note: 'XML document',
  },
  { kind: 'header', call: ['**.{setHeader,addHeader}'], args: [{ index: 1 }], note: 'response header value', sources: ['remote'] },
  // Spring: `ResponseEntity.ok().header(name, values...)`, `HttpHeaders.add/set(name, value)`; as
  // for servlets, whether CR/LF reach the client is the container's choice, so the value counts.
  { kind: 'header', call: ['**.header'], when: [{ imports: ['org.springframework.http'] }, { minArgs: 2 }], note: 'response header', sources: ['remote'] },
  { kind: 'header', call: ['{HttpHeaders,HttpHeaders(),org.springframework.http.HttpHeaders,org.springframework.http.HttpHeaders()}.{add,set}'], args: [{ index: 1 }], note: 'response header value', sources: ['remote'] },
  { kind: 'header', call: ['Cookie', 'javax.servlet.http.Cookie', 'jakarta.servlet.http.Cookie'], args: [{ index: 1 }], note: 'cookie value', sources: ['remote'] },
  // The attribute's name as well as its value: a caller-chosen name overwrites what other code trusts.
  { kind: 'session', call: ['**.{session,httpSession,getSession()}.{setAttribute,putValue}', 'HttpSession.{setAttribute,putValue}'], args: [{ index: 0 }, { index: 1 }], note: 'session attribute', sources: ['remote'] },
  { kind: 'log', call: [LOGGERS], note: 'log message', sources: ['remote'] },
  // Predictable random values as cookies or session attributes (names: secret-names.ts).
  { kind: 'randomness', call: ['Cookie', 'javax.servlet.http.Cookie', 'jakarta.servlet.http.Cookie', 'ResponseCookie.{from,fromClientResponse}'], args: [{ index: 1 }], note: 'cookie value', sources: ['prng'] },
  { kind: 'randomness', call: ['{Cookie,javax.servlet.http.Cookie,jakarta.servlet.http.Cookie}.setValue', '{Cookie,javax.servlet.http.Cookie,jakarta.servlet.http.Cookie}().setValue'], args: [{ index: 0 }], note: 'cookie value', sources: ['prng'] },
  { kind: 'randomness', call: ['**.{session,httpSession,getSession()}.{setAttribute,putValue}', 'HttpSession.{setAttribute,putValue}'], args: [{ index: 1 }], note: 'session attribute', sources: ['prng'] },
  // Passwords (passwords.ts) given to a broken hash: a digest object of MD5/SHA-1, or a helper.
  { kind: 'weak-hash', call: [`${WEAK_HASHER}.{update,digest,hashString,hashBytes,hashUnencodedChars,putString,putBytes}`], note: 'hashed data', sources: ['password'] },
  { kind: 'weak-hash', call: ['**.DigestUtils.{md5,md5Hex,sha1,sha1Hex,sha,shaHex,md5DigestAsHex,md5Digest}'], args: [{ index: 0 }], note: 'hashed data', sources: ['password'] },
  // A pattern compiled from untrusted text (nested quantifiers: exponential matching time).
  { kind: 'regex', call: ['{Pattern,java.util.regex.Pattern}.{compile,matches}'], args: [{ index: 0 }], note: 'regular expression pattern' },
  // String's regex methods take the pattern first; not a class's static split (StringUtils,
  // which splits on literal text), Guava's Splitter, or a compiled Pattern's split(input).
  {
    kind: 'regex',
    call: ['**.{matches,replaceAll,replaceFirst,split}'],
    when: [{ method: true }],
    safeWhen: [{ receiverText: STRING_REGEX_NOT_RECEIVER }, { receiverType: '(?:^|\\.)(?:Pattern|Splitter|Matcher)\\b' }, { imports: ['com.google.common.base.Splitter'] }],
    args: [{ index: 0 }],
    note: 'regular expression pattern',
  },
]

export const JAVA_SPEC: LanguageSpec = {
  name: 'java',
  languages: ['java'],
  syntax: {
    nodes,
    decoratorKinds: ['annotation', 'marker_annotation'],
    implicitThis: true,
    // A `char` can be a quote: only numbers and booleans.
    scalarTypes: ['int', 'long', 'short', 'byte', 'double', 'float', 'boolean', 'Integer', 'Long', 'Short', 'Byte', 'Double', 'Float', 'Boolean', 'BigDecimal', 'BigInteger', 'UUID'],
    moduleResolution: 'java',
    operators: {
      and: ['&&'],
      or: ['||'],
      not: ['!'],
      equal: ['=='],
      notEqual: ['!='],
      clean: ['<', '>', '<=', '>=', '-', '*', '/', '%', '&', '|', '^', '<<', '>>', '>>>'],
      equalityMethods: ['equals', 'equalsIgnoreCase'],
    },
  },
  sources,
  sinks,
  sanitizers: [
    {
      call: ['Integer.{parseInt,valueOf}', 'Long.{parseLong,valueOf}', 'Short.parseShort', 'Double.{parseDouble,valueOf}', 'Float.parseFloat', 'Boolean.{parseBoolean,valueOf}', 'UUID.fromString', 'BigDecimal', 'BigInteger', 'LocalDate.parse', 'Instant.parse'],
      cleans: 'all',
      note: 'numeric or typed conversion',
    },
    { call: ['StringEscapeUtils.{escapeHtml4,escapeHtml3,escapeXml10,escapeXml11}', 'HtmlUtils.htmlEscape', 'Encode.{forHtml,forHtmlContent,forHtmlAttribute}', '**.encodeForHTML', '**.encodeForHTMLAttribute', '**.escapeHtml'], cleans: ['html'], note: 'HTML escaping' },
    { call: ['URLEncoder.encode', 'java.net.URLEncoder.encode', 'UriUtils.encode', '**.encodeForURL'], cleans: ['html', 'header', 'log', 'redirect', 'url', 'path'], note: 'URL encoding' },
    { call: ['FilenameUtils.getName', 'org.apache.commons.io.FilenameUtils.getName', '**.getFileName'], cleans: ['path'], note: 'file name without directories' },
    { call: ['**.enquoteLiteral', '**.encodeForSQL'], cleans: ['sql'], note: 'SQL escaping' },
    { call: ['LdapEncoder.filterEncode', '**.filterEncode', '**.encodeForLDAP'], cleans: ['ldap'], note: 'LDAP filter escaping' },
    { call: ['Filters.{eq,ne,gt,gte,lt,lte,in,nin,and,or,regex}', 'Document', 'BasicDBObject'], cleans: ['nosql'], when: [{ argText: { index: 0, matches: '^"[^$]' } }], note: 'typed query filter' },
    // Spring Data `Criteria.where("field").is(value)`: values are bound into a typed document, never
    // parsed; only constant field names (no `$`) along the chain.
    { call: ['**.{is,ne,lt,lte,gt,gte,in,nin,all,size,exists}'], cleans: ['nosql'], when: [{ receiverText: CRITERIA_CHAIN }], note: 'typed query criteria' },
    { call: ['**.{replaceAll,replace}'], cleans: ['header', 'log'], when: [{ argText: { index: 0, matches: '\\\\r|\\\\n' } }], note: 'CR/LF removal' },
    { call: ['**.encodeForOS'], cleans: ['command'], note: 'shell escaping' },
    { call: ['**.encodeForXPath'], cleans: ['xpath'], note: 'XPath escaping' },
    { call: ['Pattern.quote', 'java.util.regex.Pattern.quote'], cleans: ['regex'], note: 'regex metacharacters quoted' },
    ...quoteEscapes(['**.{replace,replaceAll}']),
    ...allowlistReplacements(['**.replaceAll']),
    // Claims of a token whose signature was checked (JJWT, auth0 java-jwt) were issued by the server.
    { call: ['**.{parseClaimsJws,parseSignedClaims}', 'JWT.require().build().verify', 'JWTVerifier.verify'], cleans: ['session'], note: 'signature-verified token' },
  ],
  markers: [{ call: ['**.{normalize,toRealPath,getCanonicalPath,getCanonicalFile,toAbsolutePath}'], marks: 'normalized-path', note: 'path normalization' }],
  guards: [
    { call: ['**.contains', '**.containsKey'], subject: { arg: 0 }, cleans: 'all', note: 'allowlist check' },
    { call: ['**.startsWith'], subject: 'receiver', cleans: ['path'], requires: 'normalized-path', note: 'path containment check' },
    { call: ['**.matches'], subject: 'receiver', cleans: 'all', when: [{ minArgs: 1 }], note: 'format validation' },
    { call: ['Pattern.matches'], subject: { arg: 1 }, cleans: 'all', note: 'format validation' },
    { call: ['**.matcher().matches'], subject: { receiverArg: 0 }, cleans: 'all', note: 'format validation' },
    { call: ['StringUtils.{isNumeric,isAlphanumeric,isAlpha}', 'NumberUtils.{isDigits,isCreatable}'], subject: { arg: 0 }, cleans: 'all', note: 'format validation' },
    ...credentialChecks(),
  ],
  semantics: {
    noReturn: ['System.exit'],
    cleanCalls: ['**.{size,length,isEmpty,equals,equalsIgnoreCase,contains,containsKey,startsWith,endsWith,matches,hashCode,compareTo,indexOf,getClass}', 'Objects.equals'],
    collectionWrites: [
      { call: ['**.{add,push,offer,addFirst,addLast,append,addAll}'], value: 0 },
      { call: ['**.insert'], value: 1 },
      { call: ['**.{put,putIfAbsent,setProperty}'], key: 0, value: 1 },
    ],
    collectionReads: [{ call: ['**.{get,getOrDefault,getProperty}'], key: 0 }],
    formatters: [
      { call: ['String.format', 'String.formatted'], template: 0, placeholder: '%' },
      { call: ['MessageFormat.format'], template: 0, placeholder: '{' },
      // Spring's URI builder: the base URL given first stays the start of everything built from
      // it (`.path(p)`, `.queryParam(k, v)` add path and query, never a host).
      { call: ['{UriComponentsBuilder,org.springframework.web.util.UriComponentsBuilder}.{fromHttpUrl,fromUriString}'], template: 0, placeholder: '\u0000' },
      { call: ['**.{path,pathSegment,queryParam,queryParams,replaceQueryParam,fragment,encode,build,buildAndExpand,expand,toUri,toUriString}'], template: 'receiver', placeholder: '\u0000' },
      // `Paths.get(BASE, name)` joins every argument into the path (not a keyed read of `Paths`).
      { call: ['{Paths,java.nio.file.Paths}.get', '{Path,java.nio.file.Path}.of'], template: 0, placeholder: '\u0000' },
    ],
    // `new URI(s)` throws on spaces, CR/LF and other control characters.
    views: [{ call: ['URI', 'java.net.URI', 'URI.create', 'java.net.URI.create'], components: { getHost: HOST_DECIDES, getAuthority: HOST_DECIDES }, validates: ['header', 'log'] }],
    // XML parser set-up that rules out external entities, on the factory or the parser itself.
    configurations: [
      { call: ['**.setFeature'], when: [{ argText: { index: 0, matches: 'disallow-doctype-decl' } }, { argText: { index: 1, matches: '^(?:true|Boolean\\.TRUE)$' } }], marks: 'hardened', on: 'receiver' },
      {
        call: ['**.setFeature'],
        when: [{ argText: { index: 0, matches: 'external-general-entities|load-external-dtd' } }, { argText: { index: 1, matches: '^(?:false|Boolean\\.FALSE)$' } }],
        marks: 'hardened',
        on: 'receiver',
      },
      {
        call: ['**.setProperty'],
        when: [{ argText: { index: 0, matches: 'SUPPORT_DTD|IS_SUPPORTING_EXTERNAL_ENTITIES|supportDTD|is-supporting-external-entities' } }, { argText: { index: 1, matches: '^(?:false|Boolean\\.FALSE)$' } }],
        marks: 'hardened',
        on: 'receiver',
      },
      { call: ['**.{setAttribute,setProperty}'], when: [{ argText: { index: 0, matches: 'ACCESS_EXTERNAL_DTD|accessExternalDTD' } }, { argText: { index: 1, matches: '^""$' } }], marks: 'hardened', on: 'receiver' },
    ],
  },
  rejections: rejections({ call: ['**.contains'] }),
  sourceWords: [
    'getParameter',
    'getHeader',
    'getCookies',
    'getInputStream',
    'getReader',
    'getQueryString',
    'getPart',
    'getRequestURI',
    'getPathInfo',
    'getOriginalFilename',
    'RequestParam',
    'PathVariable',
    'RequestBody',
    'RequestHeader',
    'CookieValue',
    'RequestPart',
    'ModelAttribute',
    'QueryParam',
    'PathParam',
    'FormParam',
    'HeaderParam',
    'main(',
    'getenv',
    'readAllBytes',
    'readString',
    'Random',
    'random',
    'RANDOM',
    // draws from a generator held in a field under any name (`rnd.nextInt(10)`)
    '.nextInt(',
    '.nextLong(',
    '.nextDouble(',
    '.nextFloat(',
    '.nextBoolean(',
    '.nextGaussian(',
    '.nextBytes(',
    '.ints(',
    '.longs(',
    '.doubles(',
  ],
}
