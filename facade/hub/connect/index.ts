/**
 * The hub's connect operations (48): OAuth connect flows, vendor resources,
 * and the integration broker (tenants, integrations, events, workflows).
 */
import { HubWorkflows } from "../../../actors/hub/broker/WorkflowActor.ts"
import { brokerIntegrationOperations } from "./BrokerIntegrations.ts"
import { connectorWebhookOperations } from "./ConnectorWebhook.ts"
import { oauthOperations } from "./OAuthConnect.ts"
import { tenantConnectionOperations } from "./TenantConnections.ts"
import { vendorOperations } from "./VendorResources.ts"
import { workflowOperations } from "./Workflows.ts"

export const hubIntegrationOperations = [
  ...oauthOperations,
  ...vendorOperations,
  ...tenantConnectionOperations,
  ...brokerIntegrationOperations,
  ...connectorWebhookOperations,
  ...workflowOperations
]

export const hubIntegrationActorKinds = [HubWorkflows]
