/** pm tags "Api Key Resource" (6) and "Api Key Current Resource" (1). */
import { apiKeyOperations } from "../shared/ApiKeyOperations.ts"

export const apiKeyResourceOperations = apiKeyOperations(
  "pm",
  { keys: "Api Key Resource", current: "Api Key Current Resource" },
  {
    create: "createPmApiKey",
    list: "listPmApiKeys",
    get: "getPmApiKey",
    update: "updatePmApiKey",
    revoke: "revokePmApiKey",
    rotate: "rotatePmApiKey",
    current: "getPmCurrentApiKey"
  }
)
