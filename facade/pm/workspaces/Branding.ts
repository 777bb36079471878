/**
 * A workspace's branding: colour, tagline and the logo (bytes in the BlobStore).
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { readFile, removeFile, storeThen } from "../../../actors/Files.ts"
import { PmOrganization } from "../../../actors/pm/OrganizationActors.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { Color } from "../../../actors/pm/WorkRecords.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { raw, tagGroup } from "../../Operation.ts"
import { inWorkspace } from "../WorkAccess.ts"
import {
  tag,
  service,
  read,
  write,
  WorkspaceParams,
  admin,
  summaryOf,
  BrandingView,
  brandingView,
  updateSection,
  configOfWorkspace
} from "./shared.ts"
import { brandingExamples } from "./Branding.examples.ts"

const LOGO_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"]
const LOGO_MAX_BYTES = 1024 * 1024

const looksLike = (contentType: string, bytes: Uint8Array) => {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
  switch (contentType) {
    case "image/png":
      return bytes.length > 8 && bytes[0] === 0x89 && ascii(1, 4) === "PNG"
    case "image/jpeg":
      return bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
    case "image/gif":
      return bytes.length > 6 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")
    case "image/webp":
      return bytes.length > 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP"
    default:
      return false
  }
}

const { operation } = tagGroup(service, tag, brandingExamples)

export const workspaceBrandingOperations = [
  operation({
    operationId: "getWorkspaceBranding",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/branding",
    summary: "The workspace's branding: color, tagline, initials and logo",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "Branding", schema: BrandingView } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const workspace = yield* summaryOf(context, params.workspaceId)
        return brandingView(params.workspaceId, workspace.name, yield* configOfWorkspace(params.workspaceId))
      })
  }),
  operation({
    operationId: "updateWorkspaceBranding",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/branding",
    summary: "Change the workspace's color or tagline (admin)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({
      color: Schema.optionalKey(Schema.NullOr(Color)),
      tagline: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)))
    }),
    responses: { 200: { description: "Branding", schema: BrandingView } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const config = yield* updateSection(context, params.workspaceId, "branding", body)
        return brandingView(params.workspaceId, (yield* summaryOf(context, params.workspaceId)).name, config)
      })
  }),
  operation({
    operationId: "uploadWorkspaceLogo",
    method: "PUT",
    path: "/v1/workspaces/{workspaceId}/logo",
    summary: "Upload the workspace's logo (the image is the request body: PNG, JPEG, GIF or WebP, at most 1 MiB; admin)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    upload: { contentTypes: LOGO_TYPES, maxBytes: LOGO_MAX_BYTES },
    responses: {
      200: { description: "Stored", schema: BrandingView },
      413: { description: "Larger than 1 MiB" },
      415: { description: "Not an accepted image type" }
    },
    handler: ({ params, upload }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        if (upload === undefined) return yield* reject("invalid", "The image is the request body", [{ path: "body", message: "missing" }])
        if (!looksLike(upload.contentType, upload.bytes))
          return yield* reject("invalid", `The body is not a ${upload.contentType} image`, [
            { path: "body", message: "content does not match Content-Type" }
          ])
        const key = `pm/workspace-logos/${params.workspaceId}/${randomUUID()}`
        const { previous } = yield* storeThen(
          key,
          upload,
          send(PmOrganization, params.workspaceId, "setLogo", caller.userId, {
            logo: { key, contentType: upload.contentType, size: upload.bytes.length, updatedAt: new Date().toISOString() }
          })
        )
        if (previous !== null) yield* removeFile(previous.key).pipe(Effect.ignore)
        return brandingView(
          params.workspaceId,
          (yield* summaryOf(context, params.workspaceId)).name,
          yield* configOfWorkspace(params.workspaceId)
        )
      })
  }),
  operation({
    operationId: "getWorkspaceLogo",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/logo",
    summary: "The workspace's logo image (members)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "The image", contentType: "image/*" }, 404: { description: "No logo" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const logo = (yield* configOfWorkspace(params.workspaceId)).logo
        if (logo === null) return yield* reject("not_found", "The workspace has no logo")
        const blob = yield* readFile(logo.key)
        if (blob === undefined) return yield* reject("not_found", "The workspace has no logo")
        return raw(logo.contentType, blob.bytes, {
          etag: `"${logo.key.split("/").pop()}"`,
          "cache-control": "private, max-age=86400",
          "x-content-type-options": "nosniff"
        })
      })
  }),
  operation({
    operationId: "deleteWorkspaceLogo",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/logo",
    summary: "Remove the workspace's logo (admin)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    responses: { 204: { description: "Removed" }, 404: { description: "No logo" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        const { previous } = yield* send(PmOrganization, params.workspaceId, "setLogo", caller.userId, { logo: null })
        if (previous !== null) yield* removeFile(previous.key).pipe(Effect.ignore)
      })
  })
]
