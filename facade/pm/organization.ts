/** pm operations of workspace administration, favorites, public sharing and workspace discovery for agents (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"
import { contextLiteOperations } from "./ContextLite.ts"
import { favoritesOperations } from "./Favorites.ts"
import { publicSharingOperations } from "./PublicSharing.ts"

export const pmOrganizationOperations: ReadonlyArray<AnyOperation> = [
  ...favoritesOperations,
  ...publicSharingOperations,
  ...contextLiteOperations
]
