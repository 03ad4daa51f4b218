/** Numbered lines of a file with the matched ones marked (by a sign and a label, not colour alone); a jump in numbers shows as a gap. */
export interface CodeLine {
  number: number
  text: string
  inMatch: boolean
}

export function CodeLines({ lines, label }: { lines: CodeLine[]; label: string }) {
  if (lines.length === 0) return <p className="hint">The scan kept no code for this finding.</p>
  return (
    <pre className="code-block code-lines" aria-label={label} tabIndex={0}>
      {lines.map((line, index) => {
        const previous = lines[index - 1]
        return (
          <span key={line.number} className="code-line-group">
            {previous && line.number > previous.number + 1 && <span className="code-gap">{`     ⋮ ${line.number - previous.number - 1} lines\n`}</span>}
            <span className={line.inMatch ? 'code-line in-match' : 'code-line'} data-line={line.number} aria-label={line.inMatch ? `line ${line.number}, matched` : undefined}>
              <span className="line-number" aria-hidden="true">
                {String(line.number).padStart(5)}
              </span>
              <span className="line-mark" aria-hidden="true">
                {line.inMatch ? '▶ ' : '  '}
              </span>
              {line.text}
              {'\n'}
            </span>
          </span>
        )
      })}
    </pre>
  )
}
