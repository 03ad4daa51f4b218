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
  // Keys in the order the states first bind them, each joined once (without a set of all keys:
  // module states hold hundreds of names, and a join runs after every branch).
  live.forEach((state, index) => {
    for (const key of state.vars.keys()) {
      if (index > 0 && boundBefore(live, index, key)) continue
      const joined = joinedValue(live, key)
      if (joined) vars.set(key, joined)
    }
  })
  return new State(vars)
}

function boundBefore(live: readonly State[], index: number, key: string): boolean {
  for (let earlier = 0; earlier < index; earlier++) if (live[earlier]?.vars.has(key)) return true
  return false
}

/** A variable's value joined over the states; bound on some paths only, its constant is not certain any more. */
function joinedValue(live: readonly State[], key: string): Val | undefined {
  let joined: Val | undefined
  let everywhere = true
  for (const state of live) {
    const value = state.vars.get(key)
    if (value === undefined) everywhere = false
    else joined = joined === undefined ? value : join(joined, value)
  }
  return joined && !everywhere ? { ...joined, constant: undefined } : joined
}
