/**
 * `LiveDocuments` over the live server: every REST edit is one transaction
 * on the same Y.Doc the sockets edit (loaded if nobody has it open), durable
 * before the effect completes; reads come from the live copy, or storage.
 * Content is validated against the rich-text schema: callers validate first
 * (`checkDoc`), so an invalid document here is a defect.
 */
import { Context, Effect } from "effect"
import { type DocumentContent, LiveDocuments, type LiveDocumentsShape } from "../actors/LiveDocuments.ts"
import type { LiveServer } from "./LiveServer.ts"

/** The running collab server of this process (for the endpoint and tests). */
export class CollabServer extends Context.Service<CollabServer, LiveServer>()("atrium/collab/CollabServer") {}

export const makeLiveDocuments = (server: LiveServer): LiveDocumentsShape => ({
  snapshot: (name) => Effect.promise(() => server.snapshot(name)),
  replace: (name, content) => Effect.promise(() => server.replace(name, content)),
  append: (name, content) => Effect.promise(() => server.append(name, content)),
  restore: (name, state) => Effect.promise(() => server.restore(name, state)),
  remove: (name) => Effect.promise(() => server.remove(name)),
  editors: (name) => Effect.sync(() => server.editors(name)),
  onChange: (listener) =>
    Effect.sync(() => server.onChange((name: string, content: DocumentContent) => Effect.runPromise(listener(name, content))))
})

/** Both services of the collab layer. */
export const collabContext = (server: LiveServer) =>
  Context.make(LiveDocuments, makeLiveDocuments(server)).pipe(Context.add(CollabServer, server))
