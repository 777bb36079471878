/**
 * Form text that is never silently dropped: while it differs from what the
 * server has, it is kept in sessionStorage (a reload or a detour through
 * another page brings it back) and leaving the page asks first.
 */
import { useCallback, useEffect, useState } from "react"

const storageKey = (key: string) => `atrium:draft:${key}`

const stored = (key: string): string | null => {
  try {
    return sessionStorage.getItem(storageKey(key))
  } catch {
    return null
  }
}

export const useDraft = (key: string, saved: string) => {
  const [value, setValue] = useState(() => stored(key) ?? saved)
  const dirty = value !== saved
  useEffect(() => {
    try {
      if (dirty) sessionStorage.setItem(storageKey(key), value)
      else sessionStorage.removeItem(storageKey(key))
    } catch {
      // Storage refused (private mode): the beforeunload prompt still guards the text.
    }
  }, [key, value, dirty])
  useEffect(() => {
    if (!dirty) return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener("beforeunload", warn)
    return () => window.removeEventListener("beforeunload", warn)
  }, [dirty])
  /** After a save: the server's text is the value again. */
  const reset = useCallback((next: string) => setValue(next), [])
  return { value, setValue, dirty, reset }
}
