/** The hub billing documents' example workspace (a made-up id the fuzz seed replaces); the rest is facade/shared/BillingOperations.ts. */
import { exampleIds } from "../calls/Examples.ts"

export const params = { workspaceId: exampleIds.workspaceId }
