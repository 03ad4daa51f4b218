/** A labelled progress bar (0..100) on the native <progress>, so assistive technology reads its value. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  return (
    <div className="progress">
      <progress max={100} value={value} aria-label={label} />
      <span className="progress-value">{value}%</span>
    </div>
  )
}
