/**
 * What a file's path says about how much to trust a match in it. Test suites, fixtures
 * and example/template files are full of fake credentials; lockfiles are full of hashes;
 * translation files are full of the word "password"; config files hold unquoted literals.
 */

export interface PathProfile {
  /** forward slashes, no leading `./` */
  path: string
  /** tests, specs, fixtures, mocks, examples, samples and `*.example`-style templates */
  isTestOrExample: boolean
  /** package-manager lockfiles (integrity hashes, resolved URLs) */
  isLockfile: boolean
  /** prose documentation (Markdown, reStructuredText, AsciiDoc, docs/) */
  isDocs: boolean
  /** i18n message catalogs */
  isLocale: boolean
  /** formats whose values are literals even when unquoted (.env, YAML, properties, shell...) */
  isConfigLike: boolean
  /** prose (Markdown, text): unquoted values in its snippets may be literals or code */
  isProse: boolean
  /** .netrc-style files where `password <value>` uses a space, not an operator */
  isNetrc: boolean
}

const TEST_DIRECTORY =
  /(?:^|\/)(?:tests?|__tests__|spec|specs|fixtures?|__fixtures__|__mocks__|mocks?|testdata|test[-_]data|examples?|samples?)\//
const TEST_FILE =
  /(?:\.(?:test|spec)\.[a-z0-9]+|_test\.(?:go|py|rb|exs?|rs)|_spec\.rb|(?:^|\/)test_[^/]*\.py|(?:^|\/)conftest\.py)$/
const TEST_CLASS_FILE = /(?:Tests?|Spec|IT)\.(?:java|kt|kts|cs|scala|swift|groovy)$/
const TEMPLATE_FILE = /(?:\.(?:example|sample|template|tmpl|tpl|dist|defaults?)|\.(?:example|sample|template)\.[a-z0-9]+|(?:^|\/)(?:example|sample)\.env)$/

const LOCKFILE_NAMES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'cargo.lock',
  'gemfile.lock',
  'poetry.lock',
  'pipfile.lock',
  'composer.lock',
  'go.sum',
  'packages.lock.json',
  'mix.lock',
  'pubspec.lock',
  'podfile.lock',
  'flake.lock',
  'gradle.lockfile',
  'uv.lock',
  'pdm.lock',
  'deno.lock',
  'package.resolved',
])

const DOCS = /(?:\.(?:md|mdx|markdown|rst|adoc|asciidoc)$|(?:^|\/)docs?\/)/
const LOCALE = /(?:^|\/)(?:locales?|i18n|l10n|lang|langs|translations?)\//
const CONFIG_EXTENSION =
  /\.(?:env|properties|ini|cfg|conf|cnf|toml|ya?ml|sh|bash|zsh|ksh|tfvars|npmrc|pypirc|netrc|gitconfig|editorconfig)$/
const PROSE_EXTENSION = /\.(?:md|mdx|markdown|rst|adoc|asciidoc|txt)$/
const CONFIG_BASENAME = /^(?:\.env(?:\..*)?|dockerfile(?:\..*)?|containerfile|\.npmrc|\.pypirc|\.netrc|_netrc|\.gitconfig|\.yarnrc|\.gemrc|procfile)$/

export function profilePath(rawPath: string): PathProfile {
  const path = rawPath.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '')
  const lower = path.toLowerCase()
  const basename = lower.slice(lower.lastIndexOf('/') + 1)
  return {
    path,
    isTestOrExample:
      TEST_DIRECTORY.test(lower) || TEST_FILE.test(lower) || TEST_CLASS_FILE.test(path) || TEMPLATE_FILE.test(lower),
    isLockfile: LOCKFILE_NAMES.has(basename) || basename.endsWith('.lock') || basename.endsWith('-lock.json'),
    isDocs: DOCS.test(lower),
    isLocale: LOCALE.test(lower),
    isConfigLike: CONFIG_EXTENSION.test(basename) || CONFIG_BASENAME.test(basename),
    isProse: PROSE_EXTENSION.test(basename),
    isNetrc: basename === '.netrc' || basename === '_netrc',
  }
}
