/** What the collab endpoint decided a socket may do with one document (CollabEndpoint decides; LiveServer serves it). */
import type { Editor } from "../actors/LiveDocuments.ts"

export interface Grant {
  /** Read-only: the connection's updates are refused, the document untouched. */
  readonly readOnly: boolean
  /** Who it is, as the document's presence lists them. */
  readonly editor: Editor
  readonly principal: unknown
}
