/** Request and response examples of the operations in Attachments.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk } from "./shared.ts"
import { exampleIds as ids } from "../WorkAccess.ts"
import { exampleAttachment } from "../WorkExamples.ts"

export const attachmentsExamples = examplesById({
  listTaskAttachments: [{ name: "attachments", request: { params: tk }, response: { status: 200, body: { items: [exampleAttachment] } } }],
  uploadTaskAttachment: [
    { name: "upload", request: { params: tk, query: { filename: "screenshot.png" } }, response: { status: 201, body: exampleAttachment } }
  ],
  getTaskAttachment: [
    { name: "get", request: { params: { ...tk, attachmentId: ids.attachment } }, response: { status: 200, body: exampleAttachment } }
  ],
  downloadTaskAttachment: [{ name: "download", request: { params: { ...tk, attachmentId: ids.attachment } }, response: { status: 200 } }],
  renameTaskAttachment: [
    {
      name: "rename",
      request: { params: { ...tk, attachmentId: ids.attachment }, body: { filename: "login.png" } },
      response: { status: 200, body: { ...exampleAttachment, filename: "login.png" } }
    }
  ],
  deleteTaskAttachment: [{ name: "delete", request: { params: { ...tk, attachmentId: ids.attachment } }, response: { status: 204 } }]
})
