/**
 * The wiki's records as the actors return them (and as they travel between
 * nodes): spaces, pages, permission entries, comments, attachments and
 * versions, in the shape of their rows.
 */
import { Schema } from "effect"
import { PageAccessLevel, PageRestriction, SpaceRole, SpaceVisibility, WorkspaceRoleSubject } from "./WikiRoles.ts"

const NullableString = Schema.NullOr(Schema.String)

export const SpaceRecord = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  key: Schema.String,
  name: Schema.String,
  description: Schema.String,
  icon: NullableString,
  visibility: SpaceVisibility,
  isPublic: Schema.Boolean,
  homePageId: NullableString,
  createdBy: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  archivedAt: NullableString
})
export type SpaceRow = typeof SpaceRecord.Type

export const PageRecord = Schema.Struct({
  id: Schema.String,
  spaceId: Schema.String,
  workspaceId: Schema.String,
  parentId: NullableString,
  title: Schema.String,
  slug: Schema.String,
  icon: NullableString,
  coverImage: NullableString,
  position: Schema.Number,
  restriction: PageRestriction,
  createdBy: Schema.String,
  updatedBy: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  archivedAt: NullableString
})
export type PageRow = typeof PageRecord.Type

export const SpacePermissionRecord = Schema.Struct({
  id: Schema.String,
  spaceId: Schema.String,
  userId: NullableString,
  workspaceRole: Schema.NullOr(WorkspaceRoleSubject),
  role: SpaceRole,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type SpacePermissionRow = typeof SpacePermissionRecord.Type

export const PagePermissionRecord = Schema.Struct({
  id: Schema.String,
  pageId: Schema.String,
  userId: NullableString,
  workspaceRole: Schema.NullOr(WorkspaceRoleSubject),
  access: PageAccessLevel,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type PagePermissionRow = typeof PagePermissionRecord.Type

/** A user or every holder of a workspace role. */
export const Subject = Schema.Union([Schema.Struct({ userId: Schema.String }), Schema.Struct({ workspaceRole: WorkspaceRoleSubject })])
export type Subject = typeof Subject.Type

/** Pages removed for good, and the blobs of their attachments (to delete after the rows). */
export const Removed = Schema.Struct({ pageIds: Schema.Array(Schema.String), blobKeys: Schema.Array(Schema.String) })
export type Removed = typeof Removed.Type
