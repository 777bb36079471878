/**
 * A wiki space live: its events on the stream (ticket from
 * `POST /wiki/v1/spaces/{spaceId}/stream-ticket`, scope `wikiSpace`) update
 * the query cache in place — a page created, moved, renamed, archived,
 * restored or deleted re-reads the space's tree and trash (and that page,
 * where it is cached), a comment change re-reads that page's comments. Events carry ids
 * only, so each reader re-reads what their own page rights show. Someone
 * else's change to the tree is announced, briefly.
 */
import { type QueryClient, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { client, data } from "../../api/client.ts"
import { currentSession } from "../../api/session.ts"
import { openStream, type StreamEvent, type StreamState } from "../../live/Stream.ts"
import { announce } from "../../ui/announce.tsx"
import { treeKey } from "./PageTree.tsx"
import { trashKey } from "./Trash.tsx"

const pathParams = (key: ReadonlyArray<unknown>) => (key[2] as { params?: { path?: Record<string, string> } } | undefined)?.params?.path

/** Queries of `path` whose path parameter `name` is `value`. */
const naming = (path: string, name: string, value: unknown) => (query: { queryKey: ReadonlyArray<unknown> }) =>
  query.queryKey[1] === path && pathParams(query.queryKey)?.[name] === value

const SAID: Record<string, string> = {
  "page.created": "A page was added to this space",
  "page.moved": "A page was moved in this space",
  "page.updated": "A page was renamed in this space",
  "page.archived": "A page was archived in this space",
  "page.restored": "A page was restored in this space",
  "page.deleted": "A page was deleted from this space"
}

export const applyWikiEvent = async (queryClient: QueryClient, spaceId: string, event: StreamEvent) => {
  const pageId = event.data.pageId
  if (event.type.startsWith("comment.")) {
    await queryClient.invalidateQueries({ predicate: naming("/wiki/v1/pages/{pageId}/comments", "pageId", pageId) })
    return
  }
  if (event.actorId !== currentSession()?.user.id && SAID[event.type] !== undefined) announce(SAID[event.type]!)
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: treeKey(spaceId) }),
    queryClient.invalidateQueries({ queryKey: trashKey(spaceId) }),
    queryClient.invalidateQueries({ predicate: naming("/wiki/v1/pages/{pageId}", "pageId", pageId) })
  ])
}

/** Follows the space while the component using it lives; answers the stream's state. */
export const useWikiSpaceLive = (spaceId: string): StreamState => {
  const queryClient = useQueryClient()
  const [state, setState] = useState<StreamState>("connecting")
  useEffect(() => {
    let applying: Promise<unknown> = Promise.resolve()
    const queue = (work: () => Promise<unknown>) => {
      applying = applying.then(work).catch(() => undefined)
    }
    const everything = () => queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[1]).startsWith("/wiki/") })
    let refused = false
    const stop = openStream(
      async () => {
        const result = await client.POST("/wiki/v1/spaces/{spaceId}/stream-ticket", { params: { path: { spaceId } } })
        if (result.response.status === 403 || result.response.status === 404) {
          // Not for this reader (the space says why): stop rather than retry forever.
          refused = true
          stop()
          setState("closed")
        }
        return data(result)
      },
      "wikiSpace",
      spaceId,
      {
        event: (event) => queue(() => applyWikiEvent(queryClient, spaceId, event)),
        resync: () => queue(everything),
        state: (next) => {
          if (refused) return
          setState(next)
          // Live (again): re-read the tree once, for what changed before the subscription began.
          if (next === "live") queue(() => queryClient.invalidateQueries({ queryKey: treeKey(spaceId) }))
        }
      }
    )
    return stop
  }, [spaceId, queryClient])
  return state
}
