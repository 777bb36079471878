/**
 * The wiki's DTOs as operations answer them (spaces, pages, rich-text
 * content), and the mapping from rows. Named (`identifier`) so the catalog
 * and OpenAPI list them once.
 */
import { Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import type { PageRow, SpaceRow } from "./WikiRecords.ts"
import { PageRestriction, SpaceRole, SpaceVisibility } from "./WikiRoles.ts"

export interface ProseMirrorJson {
  readonly type: string
  readonly attrs?: { readonly [name: string]: unknown }
  readonly content?: ReadonlyArray<ProseMirrorJson>
  readonly marks?: ReadonlyArray<{ readonly type: string; readonly attrs?: { readonly [name: string]: unknown } }>
  readonly text?: string
}

/** A ProseMirror JSON node (a whole document is `{type: "doc", content: [...]}`); node and mark types are checked on write. */
export const ProseMirrorNode: Schema.Codec<ProseMirrorJson> = Schema.Struct({
  type: Schema.String.check(Schema.isMaxLength(64)),
  attrs: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
  content: Schema.optionalKey(Schema.Array(Schema.suspend((): Schema.Codec<ProseMirrorJson> => ProseMirrorNode))),
  marks: Schema.optionalKey(
    Schema.Array(
      Schema.Struct({
        type: Schema.String.check(Schema.isMaxLength(64)),
        attrs: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
      })
    )
  ),
  text: Schema.optionalKey(Schema.String)
}).annotate({
  identifier: "ProseMirrorNode",
  description:
    "ProseMirror JSON (Tiptap): nodes doc, paragraph, heading, bulletList, orderedList, listItem, taskList, taskItem, codeBlock, blockquote, horizontalRule, image, table…, hardBreak, mention, text; marks bold, italic, strike, code, highlight, link"
})

export const PageTitle = Schema.String.check(Schema.isMaxLength(255), Schema.isPattern(/\S/, { expected: "a non-blank title" })).annotate({
  description: "At most 255 characters"
})

/** Markdown source (GitHub-flavoured: headings, lists, task lists, tables, code, links, images). */
export const Markdown = Schema.String.check(Schema.isMaxLength(512 * 1024)).annotate({ description: "Markdown, at most 512 KiB" })

export const Icon = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64)).annotate({
  description: "An emoji or icon name",
  examples: ["📘"]
})

export const CoverImage = Schema.String.check(
  Schema.isMaxLength(2048),
  Schema.isPattern(/^(https?:\/\/\S+|gallery:[a-z0-9-]+|attachment:[0-9a-f-]{36})$/, {
    expected: "an http(s) URL, gallery:<id> (see the cover image gallery) or attachment:<attachmentId>"
  })
).annotate({
  description:
    "An http(s) URL, `gallery:<id>` from the cover image gallery, or `attachment:<attachmentId>` of an image attached to the page"
})

export const WikiSpaceView = Schema.Struct({
  id: Id,
  workspaceId: Id,
  key: Schema.String.annotate({ description: "Short unique key within the workspace (upper case), e.g. ENG" }),
  name: Schema.String,
  description: Schema.String,
  icon: Schema.NullOr(Schema.String),
  visibility: SpaceVisibility,
  isPublic: Schema.Boolean.annotate({ description: "Published as a public wiki (see Public Wiki Settings)" }),
  homePageId: Schema.NullOr(Id),
  pageCount: Schema.Number.annotate({ description: "Pages the caller can see (not archived)" }),
  role: SpaceRole.annotate({ description: "The caller's role in this space" }),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  archivedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "WikiSpace" })
export type WikiSpaceView = typeof WikiSpaceView.Type

export const spaceView = (space: SpaceRow, role: SpaceRole, pageCount: number): WikiSpaceView => ({
  id: space.id,
  workspaceId: space.workspaceId,
  key: space.key,
  name: space.name,
  description: space.description,
  icon: space.icon,
  visibility: space.visibility,
  isPublic: space.isPublic,
  homePageId: space.homePageId,
  pageCount,
  role,
  createdBy: space.createdBy,
  createdAt: space.createdAt,
  updatedAt: space.updatedAt,
  archivedAt: space.archivedAt
})

export const WikiPageSummary = Schema.Struct({
  id: Id,
  spaceId: Id,
  workspaceId: Id,
  parentPageId: Schema.NullOr(Id),
  title: Schema.String,
  slug: Schema.String.annotate({ description: "URL-safe form of the title, unique within the space" }),
  icon: Schema.NullOr(Schema.String),
  coverImage: Schema.NullOr(Schema.String),
  position: Schema.Number.annotate({ description: "Order among siblings (ascending)" }),
  restriction: PageRestriction,
  createdBy: Id,
  updatedBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  archivedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "WikiPageSummary" })
export type WikiPageSummary = typeof WikiPageSummary.Type

export const pageSummary = (page: PageRow): WikiPageSummary => ({
  id: page.id,
  spaceId: page.spaceId,
  workspaceId: page.workspaceId,
  parentPageId: page.parentId,
  title: page.title,
  slug: page.slug,
  icon: page.icon,
  coverImage: page.coverImage,
  position: page.position,
  restriction: page.restriction,
  createdBy: page.createdBy,
  updatedBy: page.updatedBy,
  createdAt: page.createdAt,
  updatedAt: page.updatedAt,
  archivedAt: page.archivedAt
})

export const WikiPageView = Schema.Struct({
  ...WikiPageSummary.fields,
  spaceKey: Schema.String,
  content: ProseMirrorNode,
  text: Schema.String.annotate({ description: "Plain text of the content" }),
  markdown: Schema.String.annotate({ description: "The content as Markdown" }),
  access: Schema.Literals(["edit", "read"]).annotate({ description: "What the caller may do with the page" })
}).annotate({ identifier: "WikiPage" })
export type WikiPageView = typeof WikiPageView.Type

export const examples = {
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  userId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  spaceId: "5d0c3b2a-1f4e-4a6b-9c8d-7e6f5a4b3c2d",
  pageId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  childPageId: "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
  at: "2026-11-21T12:00:00.000Z"
} as const

export const exampleSpace: WikiSpaceView = {
  id: examples.spaceId,
  workspaceId: examples.workspaceId,
  key: "ENG",
  name: "Engineering",
  description: "How we build things",
  icon: "🛠️",
  visibility: "workspace",
  isPublic: false,
  homePageId: examples.pageId,
  pageCount: 12,
  role: "admin",
  createdBy: examples.userId,
  createdAt: examples.at,
  updatedAt: examples.at,
  archivedAt: null
}

export const examplePageSummary: WikiPageSummary = {
  id: examples.pageId,
  spaceId: examples.spaceId,
  workspaceId: examples.workspaceId,
  parentPageId: null,
  title: "Onboarding",
  slug: "onboarding",
  icon: "👋",
  coverImage: null,
  position: 1,
  restriction: "open",
  createdBy: examples.userId,
  updatedBy: examples.userId,
  createdAt: examples.at,
  updatedAt: examples.at,
  archivedAt: null
}

export const exampleDoc: ProseMirrorJson = {
  type: "doc",
  content: [
    { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Welcome" }] },
    {
      type: "paragraph",
      content: [
        { type: "text", text: "Read the " },
        { type: "text", marks: [{ type: "bold" }], text: "setup guide" },
        { type: "text", text: " first." }
      ]
    }
  ]
}

export const examplePage: WikiPageView = {
  ...examplePageSummary,
  spaceKey: "ENG",
  content: exampleDoc,
  text: "Welcome\n\nRead the setup guide first.",
  markdown: "# Welcome\n\nRead the **setup guide** first.\n",
  access: "edit"
}
