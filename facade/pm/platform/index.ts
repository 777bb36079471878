/**
 * Operations side of pm (issue 16, part B): platform administration, internal
 * service-to-service operations, SSO, push, billing, version and tenant
 * branding, external connections; and the actor kinds they use.
 */
import { Billing } from "../../../actors/billing/Billing.ts"
import { UserStanding } from "../../../actors/identity/UserStanding.ts"
import { AlertRules } from "../../../actors/platform/AlertRules.ts"
import { WorkspaceQuota } from "../../../actors/platform/Quotas.ts"
import { PushSubscriptions } from "../../../actors/push/PushSubscriptions.ts"
import { WorkspaceSso } from "../../../actors/sso/SsoConfig.ts"
import type { ActorKind } from "../../../runtime/Actor.ts"
import type { AnyOperation } from "../../Operation.ts"
import { adminAlertsOperations } from "./AdminAlerts.ts"
import { adminInsightsOperations } from "./AdminInsights.ts"
import { adminUsersOperations } from "./AdminUsers.ts"
import { adminWorkspacesOperations } from "./AdminWorkspaces.ts"
import { billingOperations } from "./Billing.ts"
import { externalConnectionsOperations } from "./ExternalConnections.ts"
import { internalServiceOperations } from "./InternalServices.ts"
import { internalWorkspaceAccountOperations } from "./InternalWorkspaceAccount.ts"
import { internalWorkspacesOperations } from "./InternalWorkspaces.ts"
import { paymentWebhookOperations } from "./PaymentWebhook.ts"
import { pushSubscriptionsOperations } from "./PushSubscriptions.ts"
import { ssoLoginOperations } from "./SsoLogin.ts"
import { versionTenantOperations } from "./VersionTenant.ts"
import { workspaceSsoOperations } from "./WorkspaceSso.ts"

export const pmOpsActorKinds: ReadonlyArray<ActorKind> = [
  AlertRules,
  WorkspaceQuota,
  Billing,
  WorkspaceSso,
  PushSubscriptions,
  UserStanding
]

export const pmOpsOperations: ReadonlyArray<AnyOperation> = [
  ...adminUsersOperations,
  ...adminWorkspacesOperations,
  ...adminInsightsOperations,
  ...adminAlertsOperations,
  ...internalServiceOperations,
  ...internalWorkspacesOperations,
  ...internalWorkspaceAccountOperations,
  ...billingOperations,
  ...paymentWebhookOperations,
  ...workspaceSsoOperations,
  ...ssoLoginOperations,
  ...pushSubscriptionsOperations,
  ...versionTenantOperations,
  ...externalConnectionsOperations
]
