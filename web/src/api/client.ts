/**
 * The one API client: openapi-fetch typed by the paths generated from the
 * server's own OpenAPI documents (`npm run web:types`, see
 * facade/web/ApiTypes.ts), all four services on this origin. Every request
 * carries the session's bearer token; a 401 trades the refresh token once
 * and retries; when that fails the session ends (the app returns to sign-in).
 * `$api` gives TanStack Query options and hooks keyed `[method, path, init]`.
 */
import createFetchClient from "openapi-fetch"
import createQueryClient from "openapi-react-query"
import type { paths as FeedbackPaths } from "./generated/feedback.ts"
import type { paths as HubPaths } from "./generated/hub.ts"
import type { paths as PmPaths } from "./generated/pm.ts"
import type { paths as WikiPaths } from "./generated/wiki.ts"
import { currentSession, refreshSession } from "./session.ts"

export type Paths = PmPaths & HubPaths & WikiPaths & FeedbackPaths

/** The server's error envelope. */
export interface ErrorEnvelope {
  readonly error: { readonly code: string; readonly message: string; readonly field?: string }
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

const withToken = (request: Request): Request => {
  const token = currentSession()?.accessToken
  if (token === undefined) return request
  const headers = new Headers(request.headers)
  headers.set("authorization", `Bearer ${token}`)
  return new Request(request, { headers })
}

/** fetch with the session's token, one refresh and retry on 401. */
const authenticatedFetch = async (request: Request): Promise<Response> => {
  const retry = request.clone()
  const response = await fetch(withToken(request))
  if (response.status !== 401 || currentSession() === undefined) return response
  return (await refreshSession()) ? fetch(withToken(retry)) : response
}

export const client = createFetchClient<Paths>({ baseUrl: "", fetch: authenticatedFetch })
export const $api = createQueryClient(client)

/** A reply's data, or its error envelope as an ApiError (network failures stay as they are). */
export const data = <T>(result: { data?: T; error?: unknown; response: Response }): T => {
  if (result.response.ok) return result.data as T
  const envelope = result.error as Partial<ErrorEnvelope> | undefined
  throw new ApiError(
    result.response.status,
    envelope?.error?.code ?? "error",
    envelope?.error?.message ?? `The server answered ${result.response.status}`
  )
}

/** What to tell a person about a failed call (ApiError, a query's error envelope, or a lost connection). */
export const messageOf = (cause: unknown, fallback = "Something went wrong"): string => {
  const failure = cause instanceof ApiError ? cause : (cause as Partial<ErrorEnvelope> | undefined)?.error
  if (typeof failure?.message === "string") {
    return failure.code === "forbidden" ? `You don't have permission for this: ${failure.message}` : failure.message
  }
  if (cause instanceof TypeError) return "Cannot reach the server"
  return fallback
}
