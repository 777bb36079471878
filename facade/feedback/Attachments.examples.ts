/** Request and response examples of the operations in Attachments.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "./FeedbackViews.ts"

const exampleAttachment = {
  id: examples.attachmentId,
  featureRequestId: examples.featureRequestId,
  filename: "mockup.png",
  contentType: "image/png",
  size: 48213,
  uploadedBy: { userId: examples.userId, name: "Alice" },
  createdAt: examples.at,
  url: `/feedback/v1/attachments/${examples.attachmentId}/content`
}

export const attachmentsExamples = examplesById({
  uploadFeatureRequestAttachment: [
    {
      name: "image",
      request: { params: { featureRequestId: examples.featureRequestId }, query: { filename: "mockup.png" } },
      response: { status: 201, body: exampleAttachment }
    }
  ],
  listFeatureRequestAttachments: [
    {
      name: "list",
      request: { params: { featureRequestId: examples.featureRequestId } },
      response: { status: 200, body: { items: [exampleAttachment] } }
    }
  ],
  downloadFeedbackAttachment: [
    { name: "download", request: { params: { attachmentId: examples.attachmentId } }, response: { status: 200 } }
  ],
  deleteFeedbackAttachment: [{ name: "delete", request: { params: { attachmentId: examples.attachmentId } }, response: { status: 204 } }]
})
