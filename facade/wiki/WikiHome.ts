/**
 * wiki tag "Wiki Home" (1): the home screen of a workspace's wiki in one
 * call — the default home space, the spaces the caller can see, their
 * favorites, what they viewed and edited lately, and what changed lately
 * across the wiki. Only pages the caller may read.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { PageRef } from "../../actors/wiki/DiscoveryViews.ts"
import * as HomeReads from "../../actors/wiki/HomeReads.ts"
import { readerOf } from "../../actors/wiki/VisiblePages.ts"
import { callerOf } from "../../actors/wiki/WikiAccess.ts"
import { wikiSettingsOf } from "../../actors/wiki/WikiSettings.ts"
import { principalOf } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { wikiHomeExamples } from "./WikiHome.examples.ts"
const LIST = 10

const SpaceCard = Schema.Struct({
  id: Schema.String,
  key: Schema.String,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  pageCount: Schema.Number,
  lastUpdatedAt: Schema.NullOr(Schema.String)
}).annotate({ identifier: "WikiHomeSpace" })

const Home = Schema.Struct({
  workspaceId: Schema.String,
  homeSpace: Schema.NullOr(SpaceCard).annotate({
    description: "The workspace's default home space (Wiki Settings), when the caller can see it"
  }),
  spaces: Schema.Array(SpaceCard),
  favorites: Schema.Array(Schema.Struct({ ...PageRef.fields, addedAt: Schema.String })),
  recentlyViewed: Schema.Array(Schema.Struct({ ...PageRef.fields, viewedAt: Schema.String })),
  recentlyEdited: Schema.Array(Schema.Struct({ ...PageRef.fields, editedAt: Schema.String })).annotate({
    description: "Pages the caller edited lately"
  }),
  recentlyUpdated: Schema.Array(
    Schema.Struct({
      ...PageRef.fields,
      updatedAt: Schema.String,
      updatedBy: Schema.Struct({ userId: Schema.String, name: Schema.String })
    })
  ),
  totals: Schema.Struct({ spaces: Schema.Number, pages: Schema.Number })
}).annotate({ identifier: "WikiHome" })

const { operation } = tagGroup("wiki", "Wiki Home", wikiHomeExamples)

export const wikiHomeOperations = [
  operation({
    operationId: "getWikiHome",
    method: "GET",
    path: "/v1/home",
    summary: "The wiki home screen: spaces, favorites, recent views, edits and updates",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ workspaceId: Id }),
    responses: { 200: { description: "Home screen", schema: Home } },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = callerOf(yield* principalOf(context))
        const reader = yield* readerOf(caller, q.workspaceId)
        const cards = yield* HomeReads.spaceCards(reader)
        const recentlyViewed = yield* HomeReads.recentlyViewed(reader, LIST)
        const recentlyEdited = yield* HomeReads.recentlyEdited(reader, LIST)
        const updated = yield* HomeReads.recentlyUpdated(reader, LIST)
        const favorites = yield* HomeReads.favoritesOf(reader, LIST)
        const settings = yield* wikiSettingsOf(q.workspaceId)
        const names = yield* usersByIds([...new Set(updated.map((page) => page.updatedBy))])
        return {
          workspaceId: q.workspaceId,
          homeSpace: cards.find((card) => card.id === settings.defaultHomeSpaceId) ?? null,
          spaces: cards,
          favorites,
          recentlyViewed,
          recentlyEdited,
          recentlyUpdated: updated.map((page) => ({
            ...page,
            updatedBy: { userId: page.updatedBy, name: names.get(page.updatedBy)?.name ?? "" }
          })),
          totals: { spaces: cards.length, pages: cards.reduce((sum, card) => sum + card.pageCount, 0) }
        }
      }).pipe(Effect.catchTag("SqlError", Effect.die))
  })
]
