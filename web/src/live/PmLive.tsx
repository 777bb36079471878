/**
 * The workspace's pm stream for the whole app: one socket per open workspace
 * (scope `workspace`), its events applied to the query cache in place
 * (pmCache.ts), its state shown by the "offline — reconnecting" banner.
 */
import { useQueryClient } from "@tanstack/react-query"
import { createContext, type ReactNode, useContext, useEffect, useState } from "react"
import { client, data } from "../api/client.ts"
import { applyNotification, applyPmEvent, resyncPm } from "./pmCache.ts"
import { openStream, type StreamState } from "./Stream.ts"

const LiveState = createContext<StreamState>("connecting")

export const usePmLiveState = () => useContext(LiveState)

export const PmLive = ({ workspaceId, children }: { readonly workspaceId: string; readonly children: ReactNode }) => {
  const queryClient = useQueryClient()
  const [state, setState] = useState<StreamState>("connecting")
  useEffect(() => {
    // Events are applied one after another, so a task's reads land in the order of its changes.
    let applying: Promise<unknown> = Promise.resolve()
    const queue = (work: () => Promise<unknown>) => {
      applying = applying.then(work).catch(() => undefined)
    }
    return openStream(async () => data(await client.POST("/pm/v1/ws/ticket", { body: { workspaceId } })), "workspace", workspaceId, {
      event: (event) => queue(() => applyPmEvent(queryClient, event)),
      other: (frame) => {
        if (frame.type === "notification") queue(() => applyNotification(queryClient))
      },
      resync: () => queue(() => resyncPm(queryClient)),
      state: setState
    })
  }, [workspaceId, queryClient])
  return <LiveState.Provider value={state}>{children}</LiveState.Provider>
}

/** Shown while the stream is down: changes made elsewhere arrive once it is back. */
export const ConnectionBanner = () => {
  const state = usePmLiveState()
  // The region stays in the page (empty when live), so its message is announced when it appears.
  return (
    <div className="banner" role="status">
      {state === "reconnecting" ? "offline — reconnecting…" : state === "closed" ? "disconnected: reload the page to see live changes" : ""}
    </div>
  )
}
