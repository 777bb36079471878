/** Request and response examples of the operations in VersionTenant.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ids, at } from "./Shared.ts"

export const versionResourceExamples = examplesById({
  getVersion: [
    {
      name: "version",
      response: {
        status: 200,
        body: {
          service: "atrium",
          version: "0.1.0",
          commit: "e35bb1b2c3d4e5f60718293a4b5c6d7e8f901234",
          schemaVersion: 105,
          schemaMigration: "platform_operations",
          node: "v20.18.0",
          startedAt: at,
          uptimeSeconds: 3600
        }
      }
    }
  ]
})
export const publicTenantResourceExamples = examplesById({
  getPublicTenant: [
    {
      name: "tenant",
      request: { params: { workspaceId: ids.workspace } },
      response: {
        status: 200,
        body: {
          workspaceId: ids.workspace,
          branding: {
            name: "Acme",
            initials: "A",
            color: "#7b68ee",
            tagline: "We build rockets",
            logoUrl: `/pm/v1/workspaces/${ids.workspace}/logo?v=${encodeURIComponent(at)}`,
            logo: { contentType: "image/png", size: 20480, updatedAt: at }
          },
          signIn: { password: true, sso: true, ssoStartUrl: `/pm/v1/sso/${ids.workspace}/start` }
        }
      }
    }
  ]
})
