/** Request and response examples of the operations in Voting.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples, exampleFeatureRequest } from "./FeedbackViews.ts"

const params = { featureRequestId: examples.featureRequestId }

export const voteResourceExamples = examplesById({
  voteFeatureRequest: [
    {
      name: "vote",
      request: { params },
      response: { status: 201, body: { featureRequestId: examples.featureRequestId, voted: true, voteCount: 4, onBehalfOf: null } }
    },
    {
      name: "on-behalf",
      request: { params, query: { onBehalfOfEmail: "carol@customer.example", onBehalfOfName: "Carol" } },
      response: {
        status: 201,
        body: {
          featureRequestId: examples.featureRequestId,
          voted: true,
          voteCount: 5,
          onBehalfOf: { email: "carol@customer.example", name: "Carol" }
        }
      }
    }
  ],
  unvoteFeatureRequest: [
    {
      name: "unvote",
      request: { params },
      response: { status: 200, body: { featureRequestId: examples.featureRequestId, voted: false, voteCount: 3, onBehalfOf: null } }
    }
  ]
})
export const mergeResourceExamples = examplesById({
  mergeFeatureRequest: [
    {
      name: "merge",
      request: { params: { featureRequestId: examples.duplicateId }, body: { intoId: examples.featureRequestId } },
      response: {
        status: 200,
        body: {
          mergeId: "fbf2a3b4-5c6d-4e7f-8091-a2b3c4d5e6f7",
          featureRequest: {
            ...exampleFeatureRequest,
            id: examples.duplicateId,
            shortId: "FR-13",
            reference: "PRODUCTIDE-13",
            title: "Night theme",
            mergedInto: examples.featureRequestId,
            mergedAt: examples.at
          },
          into: { ...exampleFeatureRequest, voteCount: 7 },
          movedVotes: 3,
          duplicateVotes: 1,
          movedSubscribers: 2
        }
      }
    }
  ]
})
