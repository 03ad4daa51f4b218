/**
 * A CodeMirror 6 editor for a rule text (YAML) that shows the server's rule problems on their
 * lines as lint diagnostics (underlined, with a gutter marker and the message on hover), and
 * lists them below with a button that moves the cursor to each line. Tab indents; Escape then
 * Tab leaves the editor, so the keyboard is never trapped.
 *
 * The editor lives in a shadow root: CodeMirror then gives its styles to a constructed style
 * sheet, which the page's Content-Security-Policy (style-src 'self') allows, where in the
 * document itself it would insert a <style> element the policy refuses. Page styles do not
 * reach inside, so the editor's look is its theme below.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { yaml } from '@codemirror/lang-yaml'
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint'
import { EditorState } from '@codemirror/state'
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view'
import { useEffect, useRef } from 'react'

const theme = EditorView.theme({
  '&': { minHeight: '16rem', maxHeight: '36rem', backgroundColor: '#ffffff', color: '#1b1f24', fontSize: '0.875rem' },
  '.cm-scroller': { fontFamily: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace", overflow: 'auto' },
  '&.cm-focused': { outline: '3px solid #fb8c00', outlineOffset: '2px' },
  '.cm-gutters': { backgroundColor: '#f6f8fa', color: '#57606a', borderRight: '1px solid #d0d7de' },
})

export interface RuleProblem {
  /** 1-based */
  line: number
  message: string
}

export function RulesEditor({ value, onChange, problems, label }: { value: string; onChange(next: string): void; problems: RuleProblem[]; label: string }) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView>()
  const changed = useRef(onChange)
  changed.current = onChange

  useEffect(() => {
    if (!host.current) return
    const shadow = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' })
    const mount = document.createElement('div')
    shadow.appendChild(mount)
    const editor = new EditorView({
      parent: mount,
      root: shadow,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLine(),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          yaml(),
          lintGutter(),
          theme,
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString())
          }),
        ],
      }),
    })
    view.current = editor
    return () => {
      editor.destroy()
      mount.remove()
    }
    // the editor owns its text after mount; `value` seeds it
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    const editor = view.current
    if (!editor) return
    const { doc } = editor.state
    const diagnostics: Diagnostic[] = problems
      .filter((problem) => problem.line >= 1 && problem.line <= doc.lines)
      .map((problem) => {
        const line = doc.line(problem.line)
        return { from: line.from, to: line.to, severity: 'error', message: problem.message }
      })
    editor.dispatch(setDiagnostics(editor.state, diagnostics))
  }, [problems])

  const goTo = (lineNumber: number) => {
    const editor = view.current
    if (!editor) return
    const line = editor.state.doc.line(Math.min(Math.max(1, lineNumber), editor.state.doc.lines))
    editor.dispatch({ selection: { anchor: line.from }, scrollIntoView: true })
    editor.focus()
  }

  return (
    <div className="rules-editor">
      <div ref={host} className="rules-editor-host" />
      <p className="hint">Tab indents; press Escape, then Tab, to leave the editor.</p>
      {problems.length > 0 && (
        <div role="alert">
          <ul className="rule-problems" aria-label="Rule problems">
            {problems.map((problem, index) => (
              <li key={index}>
                <button type="button" className="link-button" onClick={() => goTo(problem.line)}>
                  Line {problem.line}
                </button>{' '}
                {problem.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
