/**
 * wiki tag "Cover Images" (1): the cover image gallery — built-in gradients
 * and colours, and the images already attached to pages of the workspace
 * that the caller can see. Each entry's `reference` is what a page's
 * `coverImage` takes (createWikiPage, updateWikiPage).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { gallery } from "../../actors/wiki/CoverGallery.ts"
import { imagesOfWorkspace } from "../../actors/wiki/PageAttachments.ts"
import { pageAccess, workspaceAccess } from "../../actors/wiki/WikiAccess.ts"

import { tagGroup } from "../Operation.ts"
import { callerFrom } from "./WikiSpaces.ts"
import { coverImagesExamples } from "./CoverImages.examples.ts"

const CoverImage = Schema.Struct({
  reference: Schema.String.annotate({ description: "The value for a page's coverImage" }),
  name: Schema.String,
  category: Schema.Literals(["gradient", "color", "uploaded"]),
  url: Schema.String.annotate({ description: "The image (a data URL for built-in covers, the download path for uploaded ones)" }),
  pageId: Schema.NullOr(Id).annotate({ description: "For uploaded images: the page it is attached to" })
}).annotate({ identifier: "WikiCoverImage" })

const { operation } = tagGroup("wiki", "Cover Images", coverImagesExamples)

export const coverImagesOperations = [
  operation({
    operationId: "listWikiCoverImages",
    method: "GET",
    path: "/v1/cover-images",
    summary: "The cover image gallery: built-in gradients and colours, and images attached to pages you can see",
    description:
      "Uploaded images come newest first (at most `limit`, default 50). Use an entry's `reference` as a page's `coverImage`; any http(s) URL works too.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({
      workspaceId: Id,
      category: Schema.optionalKey(Schema.Literals(["gradient", "color", "uploaded"])),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })))
    }),
    responses: {
      200: {
        description: "Cover images",
        schema: Schema.Struct({ items: Schema.Array(CoverImage) }).annotate({ identifier: "WikiCoverImages" })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* workspaceAccess(caller, query.workspaceId)
        const builtIn = gallery
          .filter((image) => query.category === undefined || query.category === image.category)
          .map((image) => ({ reference: `gallery:${image.id}`, name: image.name, category: image.category, url: image.url, pageId: null }))
        if (query.category !== undefined && query.category !== "uploaded") return { items: builtIn }
        const limit = query.limit ?? 50
        const images = yield* Effect.orDie(imagesOfWorkspace(query.workspaceId, 500))
        const readable = new Map<string, boolean>()
        const uploaded: Array<typeof CoverImage.Type> = []
        for (const image of images) {
          if (uploaded.length >= limit) break
          if (!readable.has(image.pageId))
            readable.set(image.pageId, (yield* Effect.option(pageAccess(caller, image.pageId)))._tag === "Some")
          if (!readable.get(image.pageId)) continue
          uploaded.push({
            reference: `attachment:${image.id}`,
            name: image.filename,
            category: "uploaded",
            url: `/wiki/v1/attachments/${image.id}/content`,
            pageId: image.pageId
          })
        }
        return { items: [...builtIn, ...uploaded] }
      })
  })
]
