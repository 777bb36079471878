/**
 * The Lens threads a user started in a workspace, newest first, kept in this
 * browser (the server keeps each thread's turns; it has no list of them).
 */
import { useCallback, useState } from "react"

export interface ThreadRef {
  readonly id: string
  readonly title: string
}

const MAX_THREADS = 20
const keyOf = (workspaceId: string) => `atrium:lens-threads:${workspaceId}`

const load = (workspaceId: string): ReadonlyArray<ThreadRef> => {
  try {
    const stored = localStorage.getItem(keyOf(workspaceId))
    return stored === null ? [] : (JSON.parse(stored) as Array<ThreadRef>)
  } catch {
    return []
  }
}

export const useThreads = (workspaceId: string) => {
  const [threads, setThreads] = useState(() => load(workspaceId))
  const remember = useCallback(
    (thread: ThreadRef) =>
      setThreads((current) => {
        const next = [thread, ...current.filter((known) => known.id !== thread.id)].slice(0, MAX_THREADS)
        try {
          localStorage.setItem(keyOf(workspaceId), JSON.stringify(next))
        } catch {
          // Storage refused: the list lasts for this page only.
        }
        return next
      }),
    [workspaceId]
  )
  return { threads, remember }
}
