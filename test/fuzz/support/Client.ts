/** One fuzz request: sent with Node's fetch, bounded by a timeout so a hang fails the case instead of the run. */
import { expect } from "vitest"
import type { AnyOperation } from "../../../facade/Operation.ts"
import { type Caller, credentialsFor, pathWith, queryString } from "./Seed.ts"

export interface FuzzRequest {
  readonly label: string
  readonly params: Record<string, string>
  readonly query?: Record<string, unknown>
  readonly body?: unknown
  /** Sent as-is (oversized bodies, uploads). */
  readonly rawBody?: string
  /** Of `rawBody`; JSON unless given. */
  readonly contentType?: string
}

export interface FuzzReply {
  readonly status: number
  readonly body: any
  readonly text: string
  readonly requestId: string | null
}

export const REQUEST_TIMEOUT_MS = 20_000

export const send = async (origin: string, op: AnyOperation, caller: Caller, request: FuzzRequest): Promise<FuzzReply> => {
  const credentials = credentialsFor(op, caller) as { token?: string; apiKey?: string }
  const headers: Record<string, string> = {}
  if (credentials.token) headers.authorization = `Bearer ${credentials.token}`
  if (credentials.apiKey) headers["x-api-key"] = credentials.apiKey
  let body: string | undefined = request.rawBody
  if (request.body !== undefined) body = JSON.stringify(request.body)
  if (body !== undefined) headers["content-type"] = request.contentType ?? "application/json"
  const url = origin + pathWith(op, request.params) + queryString(request.query)
  let response: Response
  try {
    response = await fetch(url, {
      method: op.method,
      headers,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      ...(body !== undefined ? { body } : {})
    })
  } catch (error) {
    throw new Error(
      `${op.operationId} ${request.label}: ${(error as Error).name === "TimeoutError" ? `no answer within ${REQUEST_TIMEOUT_MS} ms` : String(error)}`
    )
  }
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: response.status, body: parsed, text, requestId: response.headers.get("x-request-id") }
}

const excerpt = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text)

/** Never a 5xx; every 4xx is the error envelope. */
export const expectHonest = (op: AnyOperation, request: FuzzRequest, reply: FuzzReply) => {
  const label = `${op.operationId} ${request.label}: ${reply.status} ${excerpt(reply.text)}`
  expect(reply.status, label).toBeLessThan(500)
  if (reply.status >= 400) {
    expect(reply.body?.error?.code, label).toEqual(expect.any(String))
    expect(reply.body?.error?.message, label).toEqual(expect.any(String))
    expect(reply.body?.requestId, label).toBe(reply.requestId)
  }
}

/** A 400 whose details name `path` (or a field under it). */
export const expectRefusedNaming = (op: AnyOperation, request: FuzzRequest, reply: FuzzReply, path: string) => {
  expectHonest(op, request, reply)
  const label = `${op.operationId} ${request.label}: ${reply.status} ${excerpt(reply.text)}`
  expect(reply.status, label).toBe(400)
  const paths = ((reply.body?.error?.details ?? []) as Array<{ path: string }>).map((detail) => detail.path)
  expect(
    paths.some((named) => named === path || named.startsWith(`${path}.`)),
    `${label} should name ${path}`
  ).toBe(true)
}
