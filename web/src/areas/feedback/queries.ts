/**
 * The feedback area's reads. A team board's queries share the key prefix
 * `["feedback", "board", boardId]`, so one live event (the board's stream)
 * refreshes every view of the board; the public portal's share
 * `["feedback", "portal", slug]` and are re-read every few seconds
 * (visitors get no stream ticket).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { client, data } from "../../api/client.ts"
import { openStream, type StreamState } from "../../live/Stream.ts"
import { unwrap } from "../common/result.ts"

export const boardKey = (boardId: string) => ["feedback", "board", boardId] as const
export const portalKey = (slug: string, workspaceId: string | undefined) => ["feedback", "portal", slug, workspaceId ?? ""] as const

/** How often a visitor's portal re-reads (no live stream without an account). */
export const PORTAL_REFRESH_MS = 4000

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

/** The board's live stream: any event refreshes the board's queries; answers the stream's state. */
export const useBoardLive = (boardId: string): StreamState => {
  const queryClient = useQueryClient()
  const [state, setState] = useState<StreamState>("connecting")
  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | undefined
    // Events arriving together refresh once.
    const refresh = () => {
      clearTimeout(pending)
      pending = setTimeout(() => void queryClient.invalidateQueries({ queryKey: boardKey(boardId) }), 30)
    }
    const stop = openStream(
      async () => data(await client.POST("/feedback/v1/boards/{boardId}/stream-ticket", { params: { path: { boardId } } })),
      "board",
      boardId,
      { event: refresh, resync: refresh, state: setState }
    )
    return () => {
      clearTimeout(pending)
      stop()
    }
  }, [boardId, queryClient])
  return state
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
