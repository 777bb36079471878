/** Request and response examples of the operations in Experiments.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./Examples.ts"

const exampleParams = { workspaceId: exampleIds.workspaceId }

const exampleItemParams = { ...exampleParams, experimentId: exampleIds.experimentId }

const exampleVariants = [
  { name: "control", settings: {} },
  { name: "strict", settings: { minimumCoverage: 0.5, topK: 5 } }
]

const exampleExperiment = {
  id: exampleIds.experimentId,
  workspaceId: exampleIds.workspaceId,
  name: "Stricter grading",
  status: "running" as const,
  variants: exampleVariants,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}

export const experimentsExamples = examplesById({
  createLensExperiment: [
    {
      name: "create",
      request: { params: exampleParams, body: { name: "Stricter grading", variants: exampleVariants } },
      response: { status: 201, body: exampleExperiment }
    }
  ],
  listLensExperiments: [
    { name: "list", request: { params: exampleParams }, response: { status: 200, body: { items: [exampleExperiment] } } }
  ],
  getLensExperimentResults: [
    {
      name: "results",
      request: { params: exampleItemParams },
      response: {
        status: 200,
        body: {
          experiment: exampleExperiment,
          variants: [
            { variant: "control", answers: 10, up: 6, down: 2, approval: 0.75 },
            { variant: "strict", answers: 9, up: 7, down: 1, approval: 0.875 }
          ]
        }
      }
    }
  ],
  updateLensExperiment: [
    {
      name: "stop",
      request: { params: exampleItemParams, body: { status: "stopped" } },
      response: { status: 200, body: { ...exampleExperiment, status: "stopped" } }
    }
  ],
  deleteLensExperiment: [{ name: "delete", request: { params: exampleItemParams }, response: { status: 204 } }]
})
