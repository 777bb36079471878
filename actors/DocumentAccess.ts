/**
 * Who may open a collaborative document, and how: the collab endpoint asks
 * this for every connection. The owner of the documents (the wiki, for page
 * ids) provides it; collab knows nothing of pages or spaces.
 */
import { Context, type Effect } from "effect"
import type { Principal } from "./identity/Principal.ts"

/** edit: read and write; read: updates refused, document untouched; none: connection refused. */
export type DocumentRight = "edit" | "read" | "none"

export interface DocumentAccessShape {
  readonly rightOf: (principal: Principal, documentName: string) => Effect.Effect<DocumentRight>
}

export class DocumentAccess extends Context.Service<DocumentAccess, DocumentAccessShape>()("atrium/DocumentAccess") {}
