/** The collab extension: live wiki documents (LiveDocuments) and the Hocuspocus endpoint at {wiki}/v1/collab. */
import { Layer } from "effect"
import type { Extension } from "../facade/Extension.ts"

export const collabExtension: Extension = {
  name: "collab",
  layer: () => Layer.empty
}
