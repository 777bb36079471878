/** Wiki operations of spaces, pages, versions, comments, attachments and permissions (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"
import { coverImagesOperations } from "./CoverImages.ts"
import { wikiAttachmentsOperations } from "./WikiAttachments.ts"
import { wikiCommentsOperations } from "./WikiComments.ts"
import { wikiPagePermissionsOperations } from "./WikiPagePermissions.ts"
import { wikiPagesOperations } from "./WikiPages.ts"
import { wikiPagesLiteOperations } from "./WikiPagesLite.ts"
import { wikiPageVersionsOperations } from "./WikiPageVersions.ts"
import { wikiSpacePermissionsOperations } from "./WikiSpacePermissions.ts"
import { wikiSpacesOperations } from "./WikiSpaces.ts"
import { wikiSpacesLiteOperations } from "./WikiSpacesLite.ts"

export const wikiEditingOperations: ReadonlyArray<AnyOperation> = [
  ...wikiSpacesOperations,
  ...wikiSpacesLiteOperations,
  ...wikiPagesOperations,
  ...wikiPagesLiteOperations,
  ...wikiPageVersionsOperations,
  ...wikiCommentsOperations,
  ...wikiAttachmentsOperations,
  ...coverImagesOperations,
  ...wikiPagePermissionsOperations,
  ...wikiSpacePermissionsOperations
]
