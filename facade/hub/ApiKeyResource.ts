/** hub tags "Api Key Resource" (5) and "Current Api Key Resource" (1). */
import { apiKeyOperations } from "../shared/ApiKeyOperations.ts"

export const apiKeyResourceOperations = apiKeyOperations(
  "hub",
  { keys: "Api Key Resource", current: "Current Api Key Resource" },
  {
    create: "createApiKey",
    list: "listApiKeys",
    get: "getApiKey",
    update: "updateApiKey",
    revoke: "revokeApiKey",
    current: "getCurrentApiKey"
  }
)
