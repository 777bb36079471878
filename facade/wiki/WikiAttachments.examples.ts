/** Request and response examples of the operations in WikiAttachments.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "../../actors/wiki/WikiViews.ts"

const attachmentId = "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"

const exampleAttachment = {
  id: attachmentId,
  pageId: examples.pageId,
  spaceId: examples.spaceId,
  filename: "network.png",
  contentType: "image/png",
  size: 48213,
  uploadedBy: { userId: examples.userId, name: "Alice" },
  createdAt: examples.at,
  url: `/wiki/v1/attachments/${attachmentId}/content`,
  reference: `attachment:${attachmentId}`,
  markdown: `![network.png](/wiki/v1/attachments/${attachmentId}/content)`
}

export const wikiAttachmentsExamples = examplesById({
  uploadWikiAttachment: [
    {
      name: "image",
      request: { params: { pageId: examples.pageId }, query: { filename: "network.png" } },
      response: { status: 201, body: exampleAttachment }
    }
  ],
  listWikiAttachments: [
    { name: "list", request: { params: { pageId: examples.pageId } }, response: { status: 200, body: { items: [exampleAttachment] } } }
  ],
  getWikiAttachment: [{ name: "get", request: { params: { attachmentId } }, response: { status: 200, body: exampleAttachment } }],
  downloadWikiAttachment: [
    { name: "download", request: { params: { attachmentId }, query: { disposition: "attachment" } }, response: { status: 200 } }
  ],
  deleteWikiAttachment: [{ name: "delete", request: { params: { attachmentId } }, response: { status: 204 } }]
})
