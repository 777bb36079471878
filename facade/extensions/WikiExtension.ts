/**
 * The wiki's services beside its operations:
 *
 * - `DocumentAccess` for the collab endpoint: a page's live document may be
 *   edited by whoever may edit the page, read by whoever may read it, and
 *   nobody else connects (same rules as the REST operations: WikiAccess).
 * - Live edits keep the page's rows current: every change refreshes the
 *   text projection and links (through the page actor), and an editing
 *   window becomes an automatic version at most once per interval.
 * - The search indexer of the discovery side (SearchIndex.ts) on the same
 *   changes (it registers once per LiveDocuments).
 */
import { Effect, Layer, Option } from "effect"
import { DocumentAccess, type DocumentRight } from "../../actors/DocumentAccess.ts"
import { LiveDocuments } from "../../actors/LiveDocuments.ts"
import { extension } from "../Extension.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { searchIndexing } from "../../actors/wiki/SearchIndex.ts"
import { autosaveIntervalMillis } from "../../actors/wiki/VersionPolicy.ts"
import { callerOf, documentRightOf } from "../../actors/wiki/WikiAccess.ts"
import { WikiPage } from "../../actors/wiki/WikiPage.ts"

const PAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Built below the actor system (extensions' services are), so it finds the
 * system in the context the collab endpoint runs it in (the full one).
 */
const documentAccess = Layer.succeed(
  DocumentAccess,
  DocumentAccess.of({
    rightOf: (principal, documentName) =>
      !PAGE_ID.test(documentName)
        ? Effect.succeed<DocumentRight>("none")
        : Effect.serviceOption(ActorSystem).pipe(
            Effect.flatMap((actors) =>
              Option.isNone(actors)
                ? Effect.die(new Error("wiki: no actor system to decide document access"))
                : documentRightOf(callerOf(principal), documentName.toLowerCase()).pipe(Effect.provideService(ActorSystem, actors.value))
            ),
            // Unsure means no: a connection refused is safer than one let in by mistake.
            Effect.catchCause((cause) =>
              Effect.as(Effect.logError(`wiki: access to document ${documentName} undecided`, cause), "none" as const)
            )
          )
  })
)

/** Follows live edits of wiki pages: projections on every change, a version per editing window. */
const followLiveEdits = Effect.gen(function* () {
  const live = yield* Effect.serviceOption(LiveDocuments)
  if (live._tag === "None") return
  const actors = yield* ActorSystem
  const scope = yield* Effect.scope
  const windows = new Set<string>()
  const logged =
    (what: string, name: string) =>
    <A, E>(effect: Effect.Effect<A, E>) =>
      effect.pipe(Effect.catchCause((cause) => Effect.logWarning(`wiki: ${what} of page ${name} failed`, cause)))
  yield* live.value.onChange((name) => {
    if (!PAGE_ID.test(name)) return Effect.void
    const refresh = actors.ask(WikiPage, name, "documentChanged", {}).pipe(logged("refresh", name))
    if (windows.has(name)) return refresh
    windows.add(name)
    const autosave = Effect.sleep(autosaveIntervalMillis()).pipe(
      Effect.andThen(actors.ask(WikiPage, name, "autosave", {})),
      logged("autosave", name),
      Effect.ensuring(Effect.sync(() => windows.delete(name)))
    )
    return Effect.andThen(refresh, Effect.asVoid(Effect.forkIn(autosave, scope)))
  })
})

export const wikiExtension = extension({
  name: "wiki",
  layer: () => Layer.merge(documentAccess, searchIndexing),
  attach: () => followLiveEdits
})
