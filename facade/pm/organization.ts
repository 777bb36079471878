/** pm operations of workspace administration, favorites, public sharing and workspace discovery for agents (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"

export const pmOrganizationOperations: ReadonlyArray<AnyOperation> = []
