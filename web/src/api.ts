/**
 * The REST client: JSON in and out, the bearer token of the signed-in user,
 * one refresh on 401, and the error envelope turned into an `ApiError`.
 */
export interface Session {
  readonly accessToken: string
  readonly refreshToken: string
  readonly user: { readonly id: string; readonly name: string; readonly email: string }
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

const KEY = "atrium.session"

let session: Session | undefined = (() => {
  try {
    const stored = sessionStorage.getItem(KEY)
    return stored === null ? undefined : (JSON.parse(stored) as Session)
  } catch {
    return undefined
  }
})()

export const currentSession = () => session

export const setSession = (next: Session | undefined) => {
  session = next
  if (next === undefined) sessionStorage.removeItem(KEY)
  else sessionStorage.setItem(KEY, JSON.stringify(next))
}

const send = async (method: string, path: string, body?: unknown): Promise<Response> =>
  fetch(path, {
    method,
    headers: {
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(session !== undefined ? { authorization: `Bearer ${session.accessToken}` } : {})
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {})
  })

let refreshing: Promise<boolean> | undefined

/** Trades the refresh token for a new pair (once at a time). */
export const refresh = (): Promise<boolean> => {
  refreshing ??= (async () => {
    if (session === undefined) return false
    const response = await fetch("/pm/v1/auth/refresh", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refreshToken: session.refreshToken })
    })
    if (!response.ok) {
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

/** Calls an operation; resolves with the JSON reply (undefined for 204). */
export const api = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
  let response = await send(method, path, body)
  if (response.status === 401 && session !== undefined && (await refresh())) response = await send(method, path, body)
  if (response.status === 204) return undefined as T
  const text = await response.text()
  const json = text === "" ? undefined : JSON.parse(text)
  if (!response.ok) {
    if (response.status === 401) {
      setSession(undefined)
      window.dispatchEvent(new Event("atrium:signed-out"))
    }
    throw new ApiError(response.status, json?.error?.code ?? "error", json?.error?.message ?? `${response.status}`)
  }
  return json as T
}
