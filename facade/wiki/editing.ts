/** Wiki operations of spaces, pages, versions, comments, attachments and permissions (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"

export const wikiEditingOperations: ReadonlyArray<AnyOperation> = []
