/**
 * Python for the data-flow engine: the tree-sitter-python node kinds, and the sources (Flask,
 * Django, FastAPI, sys.argv), sinks, sanitizers and guards of the standard library and the
 * common web, database and parsing libraries.
 */
import type { LanguageSpec, NodeRule, SinkSpec, SourceSpec } from '../spec.ts'
import { WEAK_HASHER } from '../passwords.ts'
import { HOST_DECIDES, quoteEscapes, rejections } from './validation.ts'

const nodes: Record<string, NodeRule> = {
  module: { as: 'block' },
  block: { as: 'block' },
  comment: { as: 'ignore' },
  pass_statement: { as: 'ignore' },
  global_statement: { as: 'ignore' },
  nonlocal_statement: { as: 'ignore' },
  type: { as: 'ignore' },
  ellipsis: { as: 'ignore' },
  keyword_separator: { as: 'ignore' },
  positional_separator: { as: 'ignore' },
  decorator: { as: 'ignore' },
  expression_statement: { as: 'transparent' },
  parenthesized_expression: { as: 'transparent' },
  await: { as: 'transparent' },
  as_pattern_target: { as: 'transparent' },
  identifier: { as: 'name' },
  string: { as: 'string', interpolation: ['interpolation'] },
  concatenated_string: { as: 'concat' },
  integer: { as: 'literal', value: 'number' },
  float: { as: 'literal', value: 'number' },
  true: { as: 'literal', value: 'true' },
  false: { as: 'literal', value: 'false' },
  none: { as: 'literal', value: 'null' },
  attribute: { as: 'member', object: 'object', property: 'attribute' },
  subscript: { as: 'index', object: 'value', index: 'subscript' },
  call: { as: 'call', callee: 'function', args: 'arguments' },
  keyword_argument: { as: 'keyword-arg', name: 'name', value: 'value' },
  list_splat: { as: 'spread', value: { nth: 0 } },
  dictionary_splat: { as: 'spread', value: { nth: 0 } },
  binary_operator: { as: 'binary', left: 'left', right: 'right', operator: 'operator' },
  boolean_operator: { as: 'binary', left: 'left', right: 'right', operator: 'operator' },
  comparison_operator: { as: 'binary', left: { nth: 0 }, right: { nth: 1 } },
  not_operator: { as: 'unary', operand: 'argument' },
  unary_operator: { as: 'unary', operand: 'argument', operator: 'operator' },
  conditional_expression: { as: 'conditional', then: { nth: 0 }, test: { nth: 1 }, else: { nth: 2 } },
  list: { as: 'list' },
  tuple: { as: 'list' },
  set: { as: 'list' },
  expression_list: { as: 'list' },
  dictionary: { as: 'dict' },
  pair: { as: 'pair', key: 'key', value: 'value' },
  lambda: { as: 'function', params: 'parameters', body: 'body' },
  function_definition: { as: 'function', name: 'name', params: 'parameters', body: 'body' },
  decorated_definition: { as: 'decorated', definition: 'definition', decorators: { kinds: ['decorator'] } },
  class_definition: { as: 'class', name: 'name', body: 'body', superclasses: 'superclasses' },
  assignment: { as: 'assign', target: 'left', value: 'right', type: 'type' },
  augmented_assignment: { as: 'assign', target: 'left', value: 'right', operator: 'operator' },
  named_expression: { as: 'assign', target: 'name', value: 'value' },
  pattern_list: { as: 'tuple-pattern' },
  tuple_pattern: { as: 'tuple-pattern' },
  list_pattern: { as: 'tuple-pattern' },
  if_statement: { as: 'if', test: 'condition', then: 'consequence', else: 'alternative' },
  elif_clause: { as: 'if', test: 'condition', then: 'consequence' },
  else_clause: { as: 'else', body: 'body' },
  for_statement: { as: 'foreach', target: 'left', iterable: 'right', body: 'body' },
  while_statement: { as: 'while', test: 'condition', body: 'body' },
  match_statement: { as: 'switch', value: 'subject', cases: { kinds: ['case_clause'], in: 'body' } },
  case_clause: { as: 'case', test: { kinds: ['case_pattern'] }, body: { kinds: ['block'] }, alternatives: ['union_pattern'] },
  return_statement: { as: 'return' },
  raise_statement: { as: 'throw' },
  break_statement: { as: 'break' },
  continue_statement: { as: 'continue' },
  try_statement: { as: 'try', body: 'body', handlers: { kinds: ['except_clause', 'except_group_clause'] }, finally: { kinds: ['finally_clause'] } },
  except_clause: { as: 'catch', body: { kinds: ['block'] } },
  except_group_clause: { as: 'catch', body: { kinds: ['block'] } },
  finally_clause: { as: 'block' },
  with_statement: { as: 'block' },
  with_clause: { as: 'block' },
  with_item: { as: 'transparent', inner: 'value' },
  as_pattern: { as: 'assign', target: 'alias', value: { nth: 0 } },
  import_statement: { as: 'import-module', names: 'name' },
  import_from_statement: { as: 'import-from', module: 'module_name', names: 'name' },
  aliased_import: { as: 'import-alias', name: 'name', alias: 'alias' },
  typed_parameter: { as: 'param', target: { nth: 0 }, type: 'type' },
  default_parameter: { as: 'param', target: 'name', default: 'value' },
  typed_default_parameter: { as: 'param', target: 'name', type: 'type', default: 'value' },
  list_splat_pattern: { as: 'param', target: { nth: 0 }, rest: 'list' },
  dictionary_splat_pattern: { as: 'param', target: { nth: 0 }, rest: 'dict' },
}

const HTTP_VERBS = '{get,post,put,delete,patch,head,options,api_route,websocket}'

/** The random module's draws (module functions and `random.Random()` instances; not SystemRandom). */
const RANDOM_DRAWS = '{random,randint,randrange,choice,choices,sample,getrandbits,randbytes,uniform,triangular,gauss,normalvariate,lognormvariate,expovariate,vonmisesvariate,gammavariate,betavariate,paretovariate,weibullvariate,binomialvariate}'

const sources: SourceSpec[] = [
  // Flask (the `request` global) and Django (the view's `request`), also `self.request`.
  { kind: 'http-query', access: ['**.request.args', '**.request.GET', '**.request.query_params', '**.request.query_string'] },
  { kind: 'http-body', access: ['**.request.form', '**.request.data', '**.request.POST', '**.request.body', '**.request.stream'] },
  { kind: 'http-body', call: ['**.request.get_data', '**.request.form', '**.request.body'] },
  // A parsed JSON body: its values can be dicts and lists, not only strings.
  { kind: 'http-body', access: ['**.request.json'], structured: true },
  { kind: 'http-body', call: ['**.request.get_json', '**.request.json'], structured: true },
  { kind: 'http-request', access: ['**.request.values', '**.request.view_args', '**.request.path_params', '**.request.url', '**.request.full_path'] },
  { kind: 'http-header', access: ['**.request.headers', '**.request.META', '**.request.environ'] },
  { kind: 'http-cookie', access: ['**.request.cookies', '**.request.COOKIES'] },
  { kind: 'http-file', access: ['**.request.files', '**.request.FILES'] },
  // FastAPI: parameters of route functions, except framework objects and dependencies.
  {
    kind: 'http-request',
    param: {
      functionDecorators: [`*.${HTTP_VERBS}`],
      exceptNames: ['self', 'cls', 'request', 'response', 'db', 'session', 'background_tasks'],
      exceptTypes: ['Request', 'Response', 'Session', 'AsyncSession', 'BackgroundTasks', 'WebSocket', 'HTTPConnection'],
      exceptDefaults: '^Depends\\(|^Security\\(',
    },
    label: 'route parameter',
  },
  // Flask `@app.route("/u/<name>")`: URL parts arrive as parameters.
  { kind: 'http-path', param: { functionDecorators: ['*.route'], exceptNames: ['self', 'cls'] }, label: 'URL path parameter' },
  { kind: 'cli-args', access: ['sys.argv'] },
  { kind: 'cli-args', call: ['**.parse_args', 'input'] },
  { kind: 'environment', access: ['os.environ'] },
  { kind: 'environment', call: ['os.getenv'] },
  { kind: 'file-content', call: ['open', 'io.open'] },
  // The random module is a Mersenne Twister (not random.SystemRandom, secrets, os.urandom,
  // uuid.uuid4): its values only count where predictability matters (sink kind randomness).
  { kind: 'weak-random', call: [`random.${RANDOM_DRAWS}`, `random.Random().${RANDOM_DRAWS}`, 'numpy.random.*'], label: 'random module' },
  { kind: 'weak-random', call: ['random.shuffle', 'random.Random().shuffle', 'numpy.random.shuffle'], fills: 0, label: 'random module' },
]

const LOG_METHODS = '{debug,info,warning,warn,error,exception,critical,log}'
const PATHLIB = 'pathlib.{Path,PurePath,PosixPath,WindowsPath,PurePosixPath,PureWindowsPath}'
const FIXED_URL = '^(?:[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]+/|/(?!/))'

const sinks: SinkSpec[] = [
  {
    kind: 'sql',
    call: ['**.execute', '**.executemany', '**.executescript', '**.raw', 'sqlalchemy.text', 'sqlalchemy.sql.text', '**.read_sql', '**.read_sql_query'],
    args: [{ index: 0, keyword: 'sql' }],
    note: 'SQL query text',
  },
  // Django's raw SQL fragments: QuerySet.extra(select=, where=, tables=, order_by=) and RawSQL(sql,
  // params); their `params` / `select_params` are bound, not SQL text.
  {
    kind: 'sql',
    call: ['**.extra'],
    when: [{ imports: ['django'] }, { method: true }],
    args: [{ index: 0, keyword: 'select' }, { index: 1, keyword: 'where' }, { index: 3, keyword: 'tables' }, { index: 4, keyword: 'order_by' }],
    note: 'SQL fragment of QuerySet.extra()',
  },
  { kind: 'sql', call: ['django.db.models.expressions.RawSQL', 'django.db.models.RawSQL', '**.RawSQL'], args: [{ index: 0, keyword: 'sql' }], note: 'SQL text of RawSQL()' },
  {
    kind: 'sql',
    call: ['**.text'],
    when: [{ imports: ['sqlalchemy'] }],
    args: [{ index: 0 }],
    note: 'SQL query text',
  },
  {
    kind: 'nosql',
    call: ['**.{find,find_one,find_one_and_update,find_one_and_delete,find_one_and_replace,update_one,update_many,delete_one,delete_many,count_documents,aggregate,distinct}'],
    when: [{ imports: ['pymongo', 'motor', 'mongoengine', 'flask_pymongo'] }],
    args: [
      { index: 0, shallow: true },
      { index: 0, field: '$where' },
      { index: 0, structuredFields: true },
    ],
    note: 'MongoDB query filter',
    cwe: 'CWE-943',
  },
  // The legacy Collection API (pymongo < 4): the same filters. `update(spec, document)` takes two
  // arguments (a dict's update takes one); remove/count name common methods of other objects, so
  // only a filter's fields count there, not a whole request value passed to `items.remove(x)`.
  {
    kind: 'nosql',
    call: ['**.update'],
    when: [{ imports: ['pymongo', 'motor', 'flask_pymongo'] }, { method: true }, { minArgs: 2 }],
    args: [
      { index: 0, shallow: true, keyword: 'spec' },
      { index: 0, field: '$where' },
      { index: 0, structuredFields: true },
    ],
    note: 'MongoDB query filter',
    cwe: 'CWE-943',
  },
  {
    kind: 'nosql',
    call: ['**.{remove,find_and_modify,count}'],
    when: [{ imports: ['pymongo', 'motor', 'flask_pymongo'] }, { method: true }],
    args: [
      { index: 0, field: '$where' },
      { index: 0, structuredFields: true },
    ],
    note: 'MongoDB query filter',
    cwe: 'CWE-943',
  },
  {
    kind: 'command',
    call: ['os.system', 'os.popen', 'commands.getoutput', 'subprocess.getoutput', 'subprocess.getstatusoutput', 'asyncio.create_subprocess_shell', 'pty.spawn'],
    args: [{ index: 0, keyword: 'command' }],
    note: 'shell command',
  },
  {
    kind: 'command',
    call: ['subprocess.{run,call,check_call,check_output,Popen}'],
    when: [{ keyword: 'shell', equals: true }],
    args: [{ index: 0, keyword: 'args' }],
    note: 'shell command',
  },
  {
    kind: 'command',
    call: ['subprocess.{run,call,check_call,check_output,Popen}', 'os.{execl,execle,execlp,execv,execve,execvp,spawnl,spawnlp,spawnv,spawnvp}', 'asyncio.create_subprocess_exec'],
    args: [{ index: 0, keyword: 'args', program: true }],
    note: 'program to run',
  },
  { kind: 'code', call: ['eval', 'exec', 'compile', 'builtins.eval', 'builtins.exec'], args: [{ index: 0 }], note: 'code to evaluate', sources: ['remote', 'local'] },
  // Importing a module runs its top-level code: a caller who names the module picks the code run.
  { kind: 'code', call: ['importlib.import_module', '__import__', 'builtins.__import__'], args: [{ index: 0, keyword: 'name' }], note: 'module name to import' },
  {
    kind: 'template',
    call: ['flask.render_template_string', 'render_template_string', 'jinja2.Template', 'mako.template.Template', '**.from_string', 'django.template.Template'],
    args: [{ index: 0, keyword: 'source' }],
    note: 'template source',
  },
  {
    kind: 'path',
    call: ['open', 'io.open', 'os.open', 'codecs.open', 'os.{remove,unlink,rmdir,removedirs,mkdir,makedirs,listdir,scandir,chmod,chown,truncate}', 'flask.send_file', 'send_file', '**.FileResponse', 'shutil.{rmtree,copytree}', 'tarfile.open', 'zipfile.ZipFile'],
    args: [{ index: 0, keyword: 'file' }],
    note: 'file path',
  },
  { kind: 'path', call: ['shutil.{copy,copy2,copyfile,move}', 'os.{rename,replace}'], args: [{ index: 0 }, { index: 1 }], note: 'file path' },
  // pathlib: the path object is the file name; `Path(root) / name` and `.joinpath(name)` keep its data.
  {
    kind: 'path',
    call: [
      `${PATHLIB}().**.{open,read_text,read_bytes,write_text,write_bytes,exists,is_file,is_dir,unlink,rmdir,mkdir,touch,iterdir,glob,rglob,stat,chmod,rename,replace,symlink_to,hardlink_to}`,
    ],
    args: [{ receiver: true }],
    note: 'file path',
  },
  { kind: 'path', call: [`${PATHLIB}().**.{rename,replace,symlink_to,hardlink_to}`], args: [{ index: 0, keyword: 'target' }], note: 'file path' },
  // An uploaded file (werkzeug FileStorage) saved under a name the request chose.
  { kind: 'path', call: ['**.save'], when: [{ method: true }, { receiverSource: ['http-file'] }], args: [{ index: 0, keyword: 'dst' }], note: 'file path the upload is saved to' },
  { kind: 'path', call: ['flask.send_from_directory', 'send_from_directory'], args: [{ index: 0, keyword: 'directory' }], note: 'directory served' },
  {
    kind: 'url',
    call: ['requests.{get,post,put,delete,head,patch,options}', 'httpx.{get,post,put,delete,head,patch,options,stream}', 'urllib.request.urlopen', 'urllib.request.Request', 'urllib2.urlopen', 'urlopen', 'aiohttp.request', '**.session.{get,post,put,delete}'],
    args: [{ index: 0, keyword: 'url' }],
    note: 'request URL',
    safePrefix: FIXED_URL,
  },
  { kind: 'url', call: ['requests.request', 'httpx.request', '**.urlopen'], args: [{ index: 1, keyword: 'url' }], when: [{ minArgs: 2 }], note: 'request URL', safePrefix: FIXED_URL },
  {
    kind: 'redirect',
    call: ['flask.redirect', 'redirect', 'django.shortcuts.redirect', '**.HttpResponseRedirect', '**.HttpResponsePermanentRedirect', 'HttpResponseRedirect', '**.RedirectResponse', 'RedirectResponse'],
    args: [{ index: 0, keyword: 'location' }, { keyword: 'url' }],
    note: 'redirect target',
    safePrefix: FIXED_URL,
  },
  {
    kind: 'html',
    call: ['flask.make_response', 'make_response', 'flask.Response', 'werkzeug.wrappers.Response', '**.HttpResponse', 'HttpResponse', '**.HTMLResponse', 'HTMLResponse', 'markupsafe.Markup', 'Markup', 'mark_safe', '**.mark_safe'],
    args: [{ index: 0, keyword: 'response', shallow: true }, { keyword: 'content', shallow: true }],
    safeWhen: [{ keyword: 'mimetype', equals: 'application/json' }, { keyword: 'content_type', equals: 'application/json' }, { keyword: 'media_type', equals: 'application/json' }],
    note: 'HTML response body',
  },
  { kind: 'html', returnFrom: { functionDecorators: ['*.route'] }, note: 'HTML response body returned by a view' },
  {
    kind: 'ldap',
    call: ['**.search_s', '**.search_st', '**.search_ext', '**.search_ext_s'],
    args: [{ index: 2, keyword: 'filterstr' }, { index: 0, keyword: 'base' }],
    note: 'LDAP search filter',
  },
  { kind: 'ldap', call: ['**.search'], when: [{ imports: ['ldap3'] }], args: [{ index: 1, keyword: 'search_filter' }], note: 'LDAP search filter' },
  { kind: 'xpath', call: ['**.xpath', 'lxml.etree.XPath', '**.etree.XPath', '**.evaluate'], when: [{ imports: ['lxml', 'elementpath'] }], args: [{ index: 0, keyword: '_path' }], note: 'XPath expression' },
  {
    kind: 'deserialization',
    call: ['pickle.{loads,load}', 'cPickle.{loads,load}', '_pickle.{loads,load}', 'dill.{loads,load}', 'marshal.{loads,load}', 'jsonpickle.decode', 'shelve.open', 'yaml.unsafe_load', 'yaml.unsafe_load_all', 'pandas.read_pickle'],
    args: [{ index: 0 }],
    note: 'serialized data',
    sources: ['remote', 'local'],
  },
  {
    kind: 'deserialization',
    call: ['yaml.load', 'yaml.load_all'],
    args: [{ index: 0, keyword: 'stream' }],
    safeWhen: [{ argText: { keyword: 'Loader', matches: 'Safe|BaseLoader' } }, { argText: { index: 1, matches: 'Safe|BaseLoader' } }],
    note: 'YAML document',
    sources: ['remote', 'local'],
  },
  // lxml resolves no external entity with its defaults (no_network, and since 5.0 internal
  // entities only); a parser created with resolve_entities=True or no_network=False does. The
  // standard library's parsers (xml.etree, minidom, sax) never fetch external entities.
  {
    kind: 'xml',
    call: ['lxml.etree.{fromstring,parse,XML}', '**.etree.{fromstring,parse,XML}'],
    when: [{ imports: ['lxml'] }],
    args: [{ index: 0, keyword: 'text' }],
    safeWhen: [{ marked: 'resolving', index: 1, keyword: 'parser', absent: true }],
    note: 'XML document',
  },
  {
    kind: 'xml',
    call: ['lxml.etree.iterparse', '**.etree.iterparse'],
    when: [{ imports: ['lxml'] }, { keyword: 'resolve_entities', equals: true }],
    args: [{ index: 0, keyword: 'source' }],
    note: 'XML document (external entities resolved)',
  },
  // Response objects only: a dict of headers for an outgoing request is not a response header.
  { kind: 'header', assign: ['**.{response,resp,res}.headers[]', '{response,resp,res}[]'], note: 'response header value', sources: ['remote'] },
  { kind: 'header', call: ['**.{response,resp,res}.headers.{add,set,setdefault,add_header}'], args: [{ index: 1 }], note: 'response header value', sources: ['remote'] },
  { kind: 'header', call: ['**.set_cookie'], args: [{ index: 1, keyword: 'value' }], note: 'cookie value', sources: ['remote'] },
  { kind: 'session', assign: ['session[]', 'flask.session[]', '**.session[]'], assignKey: true, note: 'session attribute', sources: ['remote'] },
  // Predictable random values as cookies or session values (names: secret-names.ts).
  { kind: 'randomness', call: ['**.set_cookie', '**.set_signed_cookie'], args: [{ index: 1, keyword: 'value' }], note: 'cookie value', sources: ['prng'] },
  { kind: 'randomness', assign: ['session[]', 'flask.session[]', '**.session[]'], note: 'session value', sources: ['prng'] },
  { kind: 'log', call: [`logging.${LOG_METHODS}`, `**.logger.${LOG_METHODS}`, `{logger,log,LOGGER,LOG,_logger,_log,audit_log}.${LOG_METHODS}`], note: 'log message', sources: ['remote'] },
  // Passwords (passwords.ts) given to a broken hash: hashlib's MD5/SHA-1, or a hash object of one.
  { kind: 'weak-hash', call: ['hashlib.{md5,sha1}', 'Crypto.Hash.{MD5,SHA1,SHA}.new'], args: [{ index: 0, keyword: 'data' }], safeWhen: [{ keyword: 'usedforsecurity', equals: false }], note: 'hashed data', sources: ['password'] },
  { kind: 'weak-hash', call: ['hashlib.new'], args: [{ index: 1, keyword: 'data' }], when: [{ argText: { index: 0, matches: '^["\']([Mm][Dd][45]|[Ss][Hh][Aa]1?)["\']$' } }], safeWhen: [{ keyword: 'usedforsecurity', equals: false }], note: 'hashed data', sources: ['password'] },
  { kind: 'weak-hash', call: [`${WEAK_HASHER}.update`], args: [{ index: 0 }], note: 'hashed data', sources: ['password'] },
  // A pattern compiled from untrusted text: nested quantifiers make matching take exponential time.
  { kind: 'regex', call: ['re.{compile,match,fullmatch,search,findall,finditer,sub,subn,split}'], args: [{ index: 0, keyword: 'pattern' }], note: 'regular expression pattern' },
  { kind: 'regex', call: ['regex.{compile,match,fullmatch,search,findall,finditer,sub,subn,split}'], when: [{ imports: ['regex'] }], args: [{ index: 0, keyword: 'pattern' }], note: 'regular expression pattern' },
]

export const PYTHON_SPEC: LanguageSpec = {
  name: 'python',
  languages: ['python'],
  syntax: {
    nodes,
    decoratorKinds: ['decorator'],
    explicitSelf: true,
    constructorNames: ['__init__'],
    moduleResolution: 'python',
    operators: {
      and: ['and'],
      or: ['or'],
      not: ['not'],
      equal: ['==', 'is'],
      notEqual: ['!=', 'is not'],
      membership: ['in'],
      negatedMembership: ['not in'],
      clean: ['<', '>', '<=', '>='],
      format: ['%'],
      pathJoin: ['/'],
    },
  },
  sources,
  sinks,
  sanitizers: [
    { call: ['int', 'float', 'bool', 'len', 'abs', 'round', 'complex', 'ord', 'uuid.UUID', 'decimal.Decimal', 'datetime.date.fromisoformat', 'ipaddress.ip_address'], cleans: 'all', note: 'numeric or typed conversion' },
    { call: ['html.escape', 'markupsafe.escape', 'flask.escape', 'escape', 'cgi.escape', 'bleach.clean', 'django.utils.html.escape', 'xml.sax.saxutils.escape'], cleans: ['html'], note: 'HTML escaping' },
    { call: ['flask.render_template', 'render_template', 'django.shortcuts.render', 'render', 'flask.jsonify', 'jsonify', '**.TemplateResponse', 'flask.render_template_string', 'render_template_string'], cleans: ['html'], note: 'auto-escaping template or JSON response' },
    { call: ['shlex.quote', 'pipes.quote', 'shlex.join'], cleans: ['command'], note: 'shell quoting' },
    { call: ['os.path.basename', 'werkzeug.utils.secure_filename', 'secure_filename'], cleans: ['path'], note: 'file name without directories' },
    { call: ['**.escape_string', 'psycopg2.sql.Identifier', 'psycopg2.sql.Literal', '**.sql.Identifier', '**.sql.Literal'], cleans: ['sql'], note: 'SQL escaping' },
    { call: ['**.escape_filter_chars', '**.escape_dn_chars'], cleans: ['ldap'], note: 'LDAP filter escaping' },
    { call: ['urllib.parse.quote', 'urllib.parse.quote_plus', 'quote', 'quote_plus', 'urllib.parse.urlencode', 'urlencode'], cleans: ['header', 'log', 'redirect'], note: 'URL encoding' },
    { call: ['**.replace'], cleans: ['header', 'log'], when: [{ argText: { index: 0, matches: '\\\\r|\\\\n' } }], note: 'CR/LF removal' },
    { call: ['re.sub'], cleans: ['header', 'log'], arg: 2, when: [{ argText: { index: 0, matches: '\\\\r|\\\\n' } }], note: 'CR/LF removal' },
    { call: ['json.loads', 'ast.literal_eval'], cleans: ['code'], note: 'data-only parsing' },
    ...quoteEscapes(['**.replace']),
    { call: ['str'], cleans: ['nosql'], note: 'a string carries no query operators' },
    { call: ['re.escape', 'regex.escape'], cleans: ['regex'], note: 'regex metacharacters escaped' },
  ],
  markers: [{ call: ['os.path.realpath', 'os.path.abspath', 'os.path.normpath', '**.resolve', '**.absolute'], marks: 'normalized-path', note: 'path normalization' }],
  guards: [
    { operator: ['in'], cleans: 'all', note: 'allowlist check' },
    { call: ['**.startswith', '**.is_relative_to'], subject: 'receiver', cleans: ['path'], requires: 'normalized-path', note: 'path containment check' },
    { call: ['**.url_has_allowed_host_and_scheme', 'url_has_allowed_host_and_scheme', 'is_safe_url', '**.is_safe_url'], subject: { arg: 0 }, cleans: ['redirect', 'url'], note: 'allowed-host check' },
    { call: ['re.fullmatch'], subject: { arg: 1 }, cleans: 'all', note: 'format validation' },
    { call: ['re.compile().fullmatch'], subject: { arg: 0 }, cleans: 'all', note: 'format validation' },
    { call: ['re.match'], subject: { arg: 1 }, cleans: 'all', when: [{ argText: { index: 0, matches: "\\$['\"]$" } }], note: 'format validation' },
    { call: ['**.isdigit', '**.isdecimal', '**.isnumeric', '**.isalnum', '**.isalpha', '**.isidentifier'], subject: 'receiver', cleans: 'all', note: 'character class check' },
  ],
  semantics: {
    noReturn: ['abort', 'flask.abort', 'sys.exit', 'exit', 'quit', 'os._exit'],
    cleanCalls: ['isinstance', 'issubclass', 'hasattr', 'callable', 'type', 'id', 'url_for', 'flask.url_for', 'redirect', 'flask.redirect', 'flask.abort', 'abort', 'reverse'],
    collectionWrites: [
      { call: ['**.append', '**.add', '**.extend', '**.appendleft', '**.update'], value: 0 },
      { call: ['**.insert'], value: 1 },
      { call: ['**.setdefault'], key: 0, value: 1 },
    ],
    collectionReads: [{ call: ['**.get', '**.getlist', '**.pop'], key: 0 }],
    formatters: [{ call: ['**.format'], template: 'receiver', placeholder: '{' }],
    views: [{ call: ['urllib.parse.{urlparse,urlsplit}', 'urlparse.{urlparse,urlsplit}'], components: { netloc: HOST_DECIDES, hostname: HOST_DECIDES } }],
    escapingTemplates: [{ call: ['markupsafe.Markup', 'flask.Markup', 'Markup'], cleans: ['html'], note: 'formatted into Markup, which escapes it' }],
    configurations: [
      { call: ['lxml.etree.{XMLParser,XMLPullParser}', '**.etree.{XMLParser,XMLPullParser}'], when: [{ keyword: 'resolve_entities', equals: true }], marks: 'resolving', on: 'result' },
      { call: ['lxml.etree.{XMLParser,XMLPullParser}', '**.etree.{XMLParser,XMLPullParser}'], when: [{ keyword: 'no_network', equals: false }], marks: 'resolving', on: 'result' },
    ],
  },
  rejections: rejections({ operator: ['in'] }),
  sourceWords: ['random', 'randint', 'randrange', 'choice', 'sample', 'getrandbits', 'randbytes', 'uniform', 'shuffle', 'gauss', 'variate', 'request', 'argv', 'environ', 'getenv', 'parse_args', 'input(', 'open(', '.get(', '.post(', '.put(', '.delete(', '.patch(', '.route(', 'api_route'],
}
