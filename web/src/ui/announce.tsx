/**
 * One polite live region for the whole app: `announce("Task moved to Done")`
 * tells screen readers (and shows it briefly). Used sparingly: for remote
 * changes worth hearing and for the result of an action.
 */
import { useSyncExternalStore } from "react"

let message = ""
let clearing: ReturnType<typeof setTimeout> | undefined
const listeners = new Set<() => void>()

export const announce = (text: string) => {
  message = text
  clearTimeout(clearing)
  clearing = setTimeout(() => {
    message = ""
    for (const listener of listeners) listener()
  }, 5000)
  for (const listener of listeners) listener()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const Announcer = () => {
  const text = useSyncExternalStore(subscribe, () => message)
  return (
    <div id="status" className="status" role="status" aria-live="polite">
      {text}
    </div>
  )
}
