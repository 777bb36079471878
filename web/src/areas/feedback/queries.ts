/**
 * The feedback area's reads. A team board's queries share the key prefix
 * `["feedback", "board", boardId]`, so one live event (the board's stream)
 * refreshes every view of the board; the public portal's share
 * `["feedback", "portal", slug]`, live over the same stream when the reader
 * is signed in and may see the board (visitors get no stream ticket).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { client, data } from "../../api/client.ts"
import { openStream, type StreamState } from "../../live/Stream.ts"
import { unwrap } from "../common/result.ts"

export const boardKey = (boardId: string) => ["feedback", "board", boardId] as const
export const portalKey = (slug: string, workspaceId: string | undefined) => ["feedback", "portal", slug, workspaceId ?? ""] as const

export const useBoards = (workspaceId: string) =>
  useQuery({
    queryKey: ["feedback", "boards", workspaceId],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards", { params: { query: { workspaceId } } }))
  })

export const useBoard = (boardId: string) =>
  useQuery({
    queryKey: [...boardKey(boardId), "board"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}", { params: { path: { boardId } } }))
  })

export const usePermissions = (boardId: string) =>
  useQuery({
    queryKey: [...boardKey(boardId), "permissions"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/permissions", { params: { path: { boardId } } }))
  })

export const useStatuses = (boardId: string) =>
  useQuery({
    queryKey: [...boardKey(boardId), "statuses"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/statuses", { params: { path: { boardId } } }))
  })

export const useCategories = (boardId: string) =>
  useQuery({
    queryKey: [...boardKey(boardId), "categories"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/categories", { params: { path: { boardId } } }))
  })

export const useProductAreas = (boardId: string) =>
  useQuery({
    queryKey: [...boardKey(boardId), "product-areas"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/product-areas", { params: { path: { boardId } } }))
  })

/** A board stream's state; `refused`: the reader may not follow it (a visitor, or no access). */
export type BoardLiveState = StreamState | "refused"

/**
 * The board's live stream: any event refreshes the queries under `queryKey`
 * (the board's by default); answers the stream's state. Off when `enabled` is false.
 */
export const useBoardLive = (
  boardId: string | undefined,
  queryKey: ReadonlyArray<string> = boardKey(boardId ?? ""),
  enabled = true
): BoardLiveState => {
  const queryClient = useQueryClient()
  const [state, setState] = useState<BoardLiveState>(enabled ? "connecting" : "refused")
  const keyText = JSON.stringify(queryKey)
  useEffect(() => {
    if (!enabled || boardId === undefined) {
      setState("refused")
      return
    }
    const key = JSON.parse(keyText) as ReadonlyArray<string>
    let pending: ReturnType<typeof setTimeout> | undefined
    // Events arriving together refresh once.
    const refresh = () => {
      clearTimeout(pending)
      pending = setTimeout(() => void queryClient.invalidateQueries({ queryKey: key }), 30)
    }
    let refused = false
    const stop = openStream(
      async () => {
        const result = await client.POST("/feedback/v1/boards/{boardId}/stream-ticket", { params: { path: { boardId } } })
        if (result.response.status === 401 || result.response.status === 403 || result.response.status === 404) {
          // Not for this reader: stop here rather than retrying forever.
          refused = true
          stop()
          setState("refused")
        }
        return data(result)
      },
      "board",
      boardId,
      {
        event: refresh,
        resync: refresh,
        state: (next) => {
          if (!refused) setState(next)
          // Back after a drop: what changed meanwhile was replayed, but re-read once in case the log was trimmed.
          if (next === "live") refresh()
        }
      }
    )
    return () => {
      clearTimeout(pending)
      stop()
    }
  }, [boardId, keyText, enabled, queryClient])
  return state
}

/** The live indicator's words. */
export const liveWords: Record<BoardLiveState, string> = {
  connecting: "connecting…",
  live: "● live",
  reconnecting: "reconnecting…",
  closed: "disconnected",
  refused: "not live"
}

/** A browser's anonymous voter id on public boards, kept in localStorage. */
export const visitorId = (): string => {
  const key = "atrium:visitor-id"
  try {
    const known = localStorage.getItem(key)
    if (known) return known
    const fresh = crypto.randomUUID()
    localStorage.setItem(key, fresh)
    return fresh
  } catch {
    return crypto.randomUUID()
  }
}
