/** Request and response examples of the operations in Milestones.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex, exampleMilestone } from "./deskExamples.ts"

const params = { milestoneId: ex.milestoneId }

export const milestonesExamples = examplesById({
  createMilestone: [
    {
      name: "plan",
      request: { params: { boardId: ex.boardId }, body: { name: "Q1 release", date: "2027-03-31" } },
      response: { status: 201, body: exampleMilestone }
    }
  ],
  listMilestones: [
    { name: "list", request: { params: { boardId: ex.boardId } }, response: { status: 200, body: { items: [exampleMilestone] } } }
  ],
  getMilestone: [{ name: "get", request: { params }, response: { status: 200, body: exampleMilestone } }],
  updateMilestone: [
    {
      name: "redate",
      request: { params, body: { date: "2027-04-15" } },
      response: { status: 200, body: { ...exampleMilestone, date: "2027-04-15" } }
    }
  ],
  deleteMilestone: [{ name: "delete", request: { params }, response: { status: 204 } }],
  addMilestoneFeatureRequest: [
    {
      name: "plan-request",
      request: { params, body: { featureRequestId: ex.featureRequestId } },
      response: { status: 201, body: { ...exampleMilestone, featureRequestIds: [ex.featureRequestId] } }
    }
  ],
  removeMilestoneFeatureRequest: [
    {
      name: "unplan",
      request: { params: { milestoneId: ex.milestoneId, featureRequestId: ex.featureRequestId } },
      response: { status: 200, body: exampleMilestone }
    }
  ],
  listMilestoneFeatureRequests: [
    {
      name: "list",
      request: { params },
      response: {
        status: 200,
        body: {
          items: [{ id: ex.featureRequestId, shortId: "FR-7", title: "Dark mode", statusId: null, voteCount: 42, createdAt: ex.at }]
        }
      }
    }
  ]
})
