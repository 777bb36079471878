import { useState } from "react"
import { messageOf } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"

/**
 * Runs a component's changes one way: `what` is announced when the call
 * succeeds, its failure (a 403 in words) is kept in `error` for the
 * component's alert, and `settle` (rereading what the change touched) runs
 * either way, since a refused change may still mean the cache is stale.
 */
export const useChange = (settle: () => Promise<unknown>) => {
  const [error, setError] = useState("")
  const run = async (what: string, call: () => Promise<unknown>): Promise<boolean> => {
    setError("")
    try {
      await call()
      announce(what)
      return true
    } catch (cause) {
      setError(messageOf(cause))
      return false
    } finally {
      await settle()
    }
  }
  return { error, run }
}
