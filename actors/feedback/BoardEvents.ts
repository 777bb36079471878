/**
 * Board events after their commit, to this node's live listeners (the board
 * stream). Listeners run synchronously and must not throw into the writer.
 */
import { Effect } from "effect"
import { logError } from "../../runtime/Log.ts"
import type { LoggedBoardEvent } from "./BoardLog.ts"

type Listener = (events: ReadonlyArray<LoggedBoardEvent>) => void

const listeners = new Set<Listener>()

/** Adds a listener; returns how to remove it. */
export const onBoardEvents = (listener: Listener): (() => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const publishBoardEvents = (events: ReadonlyArray<LoggedBoardEvent>) =>
  Effect.sync(() => {
    if (events.length === 0) return
    for (const listener of listeners) {
      try {
        listener(events)
      } catch (error) {
        logError("feedback", "a board event listener failed", error)
      }
    }
  })
