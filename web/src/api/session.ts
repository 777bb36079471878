/**
 * The signed-in session: tokens and user, kept in localStorage (so a new tab
 * is signed in too, and a sign-out in one tab signs out the others), with a
 * subscription for React (`useSession`). The refresh token is traded for a
 * new pair once at a time; when that fails the session ends, and the app
 * returns to sign-in keeping the URL.
 */
import { useSyncExternalStore } from "react"

export interface SessionUser {
  readonly id: string
  readonly name: string
  readonly email: string
}

export interface Session {
  readonly accessToken: string
  readonly refreshToken: string
  readonly user: SessionUser
}

const KEY = "atrium.session"
const listeners = new Set<() => void>()

const read = (): Session | undefined => {
  try {
    const stored = localStorage.getItem(KEY)
    return stored === null ? undefined : (JSON.parse(stored) as Session)
  } catch {
    return undefined
  }
}

let session: Session | undefined = read()

const notify = () => {
  for (const listener of listeners) listener()
}

window.addEventListener("storage", (event) => {
  if (event.key !== KEY) return
  session = read()
  notify()
})

export const currentSession = (): Session | undefined => session

export const setSession = (next: Session | undefined): void => {
  session = next
  if (next === undefined) localStorage.removeItem(KEY)
  else localStorage.setItem(KEY, JSON.stringify(next))
  notify()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const useSession = (): Session | undefined => useSyncExternalStore(subscribe, currentSession)

let refreshing: Promise<boolean> | undefined

/** Trades the refresh token for a new pair (one exchange at a time); false when the session is over. */
export const refreshSession = (): Promise<boolean> => {
  refreshing ??= (async () => {
    const before = session
    if (before === undefined) return false
    const response = await fetch("/pm/v1/auth/refresh", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refreshToken: before.refreshToken })
    }).catch(() => undefined)
    if (response === undefined) return false
    if (!response.ok) {
      // Another tab may have refreshed first (the old refresh token is then spent): use its pair.
      const stored = read()
      if (stored !== undefined && stored.refreshToken !== before.refreshToken) {
        session = stored
        notify()
        return true
      }
      setSession(undefined)
      return false
    }
    const body = (await response.json()) as Session
    setSession({ accessToken: body.accessToken, refreshToken: body.refreshToken, user: body.user })
    return true
  })().finally(() => {
    refreshing = undefined
  })
  return refreshing
}

/** When a JWT expires (ms since the epoch; 0 when unreadable). */
export const expiresAt = (jwt: string): number => {
  try {
    const payload = jwt.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")
    return Number(JSON.parse(atob(payload)).exp) * 1000 || 0
  } catch {
    return 0
  }
}

/** A current access token: refreshed first when it expires within a few seconds. */
export const freshAccessToken = async (): Promise<string | undefined> => {
  const token = session?.accessToken
  if (token !== undefined && expiresAt(token) < Date.now() + 5000) await refreshSession()
  return session?.accessToken
}
