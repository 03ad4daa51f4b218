/**
 * How much of each file to analyze. Files of languages with framework support are analyzed
 * whole (routes, calls, exits) up to a budget of lines per repository; beyond it, only their
 * import sections are parsed, so the import graph stays complete while the cost of a very
 * large repository stays bounded. Within the budget, files most likely to matter to a
 * security reviewer go first: entry points (routes, controllers, consumers, mains), then
 * authentication code, then files in layer folders, then files calling out of the process.
 */
import type { CodeFile } from './collect.ts'
import { compareText } from './text.ts'

/** Lines of JavaScript/TypeScript/Python/Java analyzed whole, per repository. */
export const FULL_ANALYSIS_LINES = 75_000

export const FRAMEWORK_LANGUAGES: ReadonlySet<string> = new Set(['javascript', 'typescript', 'tsx', 'python', 'java'])

const ENTRY =
  /@\w+\.(?:route|get|post|put|delete|patch|api_route)\(|\.(?:get|post|put|delete|patch|all|use|route)\(\s*['"`]\/|@(?:Get|Post|Put|Delete|Patch|Request)Mapping\b|@(?:RestController|Controller|WebServlet|Path|Get|Post|Put|Delete|Patch)\b|\burlpatterns\b|export\s+(?:async\s+)?function\s+(?:GET|POST|PUT|DELETE|PATCH)\b|\binclude_router\(|\bregister_blueprint\(|__name__\s*==|static\s+void\s+main\s*\(|@(?:Kafka|Rabbit|Jms|Sqs)Listener\b|\bexpress\(\)|\bFlask\(|\bFastAPI\(|\bAPIRouter\(|\bBlueprint\(/
const AUTH = /passport|jwt|JWT|login_required|PreAuthorize|SecurityFilterChain|authenticate|[Aa]uthorization|requireAuth|isAuthenticated|get_current_user|UseGuards|AuthGuard|permission_classes/
const LAYER = /(?:^|\/)(?:routes?|routers?|controllers?|views?|handlers?|api|middlewares?|services?|resolvers?|auth|security|models?|repositor(?:y|ies))(?:\/|\.|_|-)/i
const EXIT = /child_process|subprocess|requests\.|axios|fetch\(|\.query\(|\.execute\(|Runtime\.getRuntime|ProcessBuilder|RestTemplate|readFile|writeFile|urlopen|httpx|PreparedStatement|os\.system/

function priority(file: CodeFile): number {
  return (ENTRY.test(file.text) ? 8 : 0) + (AUTH.test(file.text) ? 4 : 0) + (LAYER.test(file.path) ? 2 : 0) + (EXIT.test(file.text) ? 1 : 0)
}

/** Paths of framework-language files to analyze for imports only (empty under the budget). */
export function headerOnlyFiles(files: readonly CodeFile[], budget = FULL_ANALYSIS_LINES): Set<string> {
  const candidates = files.filter((file) => FRAMEWORK_LANGUAGES.has(file.language))
  const total = candidates.reduce((sum, file) => sum + file.lines, 0)
  if (total <= budget) return new Set()
  const ranked = candidates.map((file) => ({ file, score: priority(file) })).sort((a, b) => b.score - a.score || compareText(a.file.path, b.file.path))
  const headerOnly = new Set<string>()
  let used = 0
  for (const { file } of ranked) {
    if (used + file.lines <= budget) used += file.lines
    else headerOnly.add(file.path)
  }
  return headerOnly
}
