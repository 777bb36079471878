/**
 * The fetch helper of the views not yet moved to the generated client
 * (wiki page editor, feedback roadmap): JSON in and out with the session's
 * token and its refresh. New code uses `client` / `$api` (api/client.ts).
 */
import { ApiError } from "./api/client.ts"
import { currentSession, refreshSession } from "./api/session.ts"

export { ApiError } from "./api/client.ts"
export { currentSession, refreshSession as refresh } from "./api/session.ts"

const send = (method: string, path: string, body?: unknown): Promise<Response> => {
  const session = currentSession()
  return fetch(path, {
    method,
    headers: {
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(session !== undefined ? { authorization: `Bearer ${session.accessToken}` } : {})
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {})
  })
}

/** Calls an operation; resolves with the JSON reply (undefined for 204). */
export const api = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
  let response = await send(method, path, body)
  if (response.status === 401 && currentSession() !== undefined && (await refreshSession())) response = await send(method, path, body)
  if (response.status === 204) return undefined as T
  const text = await response.text()
  const json = text === "" ? undefined : JSON.parse(text)
  if (!response.ok) throw new ApiError(response.status, json?.error?.code ?? "error", json?.error?.message ?? `${response.status}`)
  return json as T
}
