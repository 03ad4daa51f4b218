/**
 * The variables at one program point, and joining the states that reach the same point along
 * different paths (after a branch, at a loop head).
 */
import { join } from './values.ts'
import type { Val } from './values.ts'

export class State {
  constructor(public vars: Map<string, Val> = new Map()) {}

  clone(): State {
    return new State(new Map(this.vars))
  }
}

/** Joins the states reaching one point; null entries are paths that cannot get there. */
export function joinStates(states: ReadonlyArray<State | null>): State | null {
  const live = states.filter((state): state is State => state !== null)
  if (live.length <= 1) return live[0] ?? null
  const vars = new Map<string, Val>()
  const keys = new Set(live.flatMap((state) => [...state.vars.keys()]))
  for (const key of keys) {
    let joined: Val | undefined
    let everywhere = true
    for (const state of live) {
      const value = state.vars.get(key)
      if (value === undefined) everywhere = false
      else joined = joined === undefined ? value : join(joined, value)
    }
    // Bound on some paths only: its constant is not certain any more.
    if (joined) vars.set(key, everywhere ? joined : { ...joined, constant: undefined })
  }
  return new State(vars)
}
