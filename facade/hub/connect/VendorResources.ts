/**
 * The vendor resource tags (Tracker V2, Taskapp V1, Tablebase V2, Docspace V1,
 * Pm V1, Chatapp): each is the same few operations over one vendor kind's
 * adapter, so they are made here from a description of the tag. Through the
 * workspace's connection (or the one named): list the vendor's destinations,
 * choose one with a field mapping, push items (action items as tasks, notes
 * as documents, summaries as messages), pull their state back, list them.
 * Reads take `integrations:read`, changes `integrations:write`.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import {
  Destination,
  FieldMapping,
  Mapping,
  VendorItem,
  connectionFor,
  itemsOf,
  listDestinations,
  pullItems,
  pushItems,
  saveMapping
} from "../../../actors/hub/connections/VendorItems.ts"
import { type ResourceVendor, vendorShapes } from "../../../actors/hub/connections/VendorShapes.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import { type AnyOperation, tagGroup } from "../../Operation.ts"
import { exampleIds } from "../calls/Examples.ts"
import { itemsFromCall } from "./CallItems.ts"

type Capability = "destinations" | "mapping" | "push" | "pull" | "items"

export interface VendorResourceTag {
  readonly tag: string
  readonly version: "v1" | "v2"
  readonly vendor: ResourceVendor
  /** The name in operation ids (`Tracker` → listTrackerProjects). */
  readonly title: string
  /** What the vendor calls its destinations, plural and singular. */
  readonly destinations: readonly [string, string]
  readonly capabilities: ReadonlyArray<Capability>
  readonly exampleDestination: { readonly id: string; readonly name: string; readonly key: string | null }
  /** What a pushed item is, in the summaries. */
  readonly itemNoun: string
}

const service = "hub"
const Params = Schema.Struct({ workspaceId: Id })
const ConnectionQuery = Schema.Struct({
  connectionId: Schema.optionalKey(Id.annotate({ description: "The connection to use (default: the workspace's newest of this kind)" }))
})
const params = { workspaceId: exampleIds.workspaceId }
const exampleMapping = (destination: string) => ({
  connectionId: exampleIds.connectionId,
  destination,
  fields: { title: "summary", owner: "assignee" },
  updatedAt: "2026-11-21T12:00:00.000Z"
})

const PushEntry = Schema.Struct({
  key: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
    description: "The hub's reference of the item (an action item or note id): pushing the same key again answers the item already created"
  }),
  title: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500), Schema.isPattern(/\S/, { expected: "a non-blank string" })),
  description: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(100_000)).annotate({ description: "The task's description, or the document's Markdown body" })
  ),
  owner: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(320))),
  dueDate: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/, { expected: "a date YYYY-MM-DD" })))
})

const PushReply = Schema.Struct({ items: Schema.Array(Schema.Struct({ item: VendorItem, alreadyPushed: Schema.Boolean })) })
const PullReply = Schema.Struct({ checked: Schema.Number, changed: Schema.Number, items: Schema.Array(VendorItem) })
const vendorErrors = {
  409: { description: "No connection of this kind, or no destination chosen" },
  429: { description: "The vendor is rate limiting (after waiting out a short Retry-After)" },
  502: { description: "The vendor failed or refused (named in the message)" },
  504: { description: "The vendor did not answer in time" }
}

const exampleItem = (spec: VendorResourceTag) => ({
  id: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
  connectionId: exampleIds.connectionId,
  kind: vendorShapes[spec.vendor].itemKind,
  key: exampleIds.actionItemId,
  title: "Send the revised launch timeline",
  destination: spec.exampleDestination.id,
  externalId: "10042",
  url: `https://${spec.vendor}.example.com/items/10042`,
  remoteStatus: null,
  remoteAssignee: null,
  pushedAt: "2026-11-21T12:00:00.000Z",
  pulledAt: null
})

/** The operations of one vendor resource tag, in the order its capabilities list them. */
export const vendorResourceOperations = (spec: VendorResourceTag): ReadonlyArray<AnyOperation> => {
  const base = `/${spec.version}/workspaces/{workspaceId}/${spec.vendor}`
  const [plural, singular] = spec.destinations
  const Plural = plural[0]!.toUpperCase() + plural.slice(1)
  const { operation } = tagGroup(service, spec.tag)
  const common = { params: Params } as const
  const byCapability: Record<Capability, () => AnyOperation> = {
    destinations: () =>
      operation({
        ...common,
        operationId: `list${spec.title}${Plural}`,
        method: "GET",
        path: `${base}/${plural}`,
        summary: `The ${plural} of the connected ${spec.vendor} to choose where ${spec.itemNoun}s go`,
        auth: "both",
        scopes: ["integrations:read"],
        query: ConnectionQuery,
        responses: { 200: { description: Plural, schema: Schema.Struct({ items: Schema.Array(Destination) }) }, ...vendorErrors },
        examples: [{ name: "list", request: { params }, response: { status: 200, body: { items: [spec.exampleDestination] } } }],
        handler: ({ params, query }, context) =>
          Effect.gen(function* () {
            yield* workspaceRole(context, params.workspaceId)
            const connection = yield* connectionFor(params.workspaceId, spec.vendor, query.connectionId)
            return { items: yield* listDestinations(connection) }
          })
      }),
    mapping: () =>
      operation({
        ...common,
        operationId: `map${spec.title}Fields`,
        method: "PUT",
        path: `${base}/mapping`,
        summary: `Choose the ${singular} ${spec.itemNoun}s go to and how hub fields map to ${spec.vendor} fields (admin)`,
        auth: "both",
        scopes: ["integrations:write"],
        body: Schema.Struct({
          connectionId: Schema.optionalKey(Id),
          destination: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
            description: `The ${singular} id`
          }),
          fields: Schema.optionalKey(FieldMapping)
        }),
        responses: { 200: { description: "The mapping", schema: Mapping }, ...vendorErrors },
        examples: [
          {
            name: "map",
            request: { params, body: { destination: spec.exampleDestination.id, fields: { title: "summary", owner: "assignee" } } },
            response: { status: 200, body: exampleMapping(spec.exampleDestination.id) }
          }
        ],
        handler: ({ params, body }, context) =>
          Effect.gen(function* () {
            yield* workspaceRole(context, params.workspaceId, "admin")
            const principal = yield* principalOf(context)
            const connection = yield* connectionFor(params.workspaceId, spec.vendor, body.connectionId)
            return yield* saveMapping(connection, body.destination, body.fields ?? {}, principal.userId)
          })
      }),
    push: () =>
      operation({
        ...common,
        operationId: `push${spec.title}Items`,
        method: "POST",
        path: `${base}/items`,
        summary: `Push ${spec.itemNoun}s to the connected ${spec.vendor} (once per key), given or from a call`,
        auth: "both",
        scopes: ["integrations:write"],
        body: Schema.Struct({
          connectionId: Schema.optionalKey(Id),
          destination: Schema.optionalKey(
            Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
              description: `The ${singular} (default: the mapping's)`
            })
          ),
          items: Schema.optionalKey(Schema.Array(PushEntry).check(Schema.isMinLength(1), Schema.isMaxLength(50))),
          callUuid: Schema.optionalKey(
            Id.annotate({ description: "Push from this call instead of `items`: its action items (documentation tool: its notes)" })
          ),
          actionItemIds: Schema.optionalKey(
            Schema.Array(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)))
              .check(Schema.isMinLength(1), Schema.isMaxLength(50))
              .annotate({ description: "With callUuid: only these action items (default: all)" })
          )
        }),
        responses: { 200: { description: "Each item as pushed (or as pushed before)", schema: PushReply }, ...vendorErrors },
        examples: [
          {
            name: "push",
            request: {
              params,
              body: {
                destination: spec.exampleDestination.id,
                items: [
                  {
                    key: exampleIds.actionItemId,
                    title: "Send the revised launch timeline",
                    owner: "alice@example.com",
                    dueDate: "2026-11-27"
                  }
                ]
              }
            },
            response: { status: 200, body: { items: [{ item: exampleItem(spec), alreadyPushed: false }] } }
          }
        ],
        handler: ({ params, body }, context) =>
          Effect.gen(function* () {
            yield* workspaceRole(context, params.workspaceId, "member")
            const principal = yield* principalOf(context)
            const connection = yield* connectionFor(params.workspaceId, spec.vendor, body.connectionId)
            if ((body.items === undefined) === (body.callUuid === undefined))
              return yield* reject("invalid", "Give either items or a callUuid", [
                { path: "body.items", message: "either items or callUuid" }
              ])
            const drafts = body.items
              ? body.items.map((item) => ({
                  key: item.key,
                  title: item.title.trim(),
                  description: item.description ?? "",
                  owner: item.owner ?? null,
                  dueDate: item.dueDate ?? null
                }))
              : yield* itemsFromCall(context, params.workspaceId, spec.vendor, body.callUuid!, body.actionItemIds)
            return { items: yield* pushItems(connection, drafts, body.destination, principal.userId) }
          })
      }),
    pull: () =>
      operation({
        ...common,
        operationId: `pull${spec.title}Items`,
        method: "POST",
        path: `${base}/items/pull`,
        summary: `Pull the state (status, assignee) of the pushed ${spec.itemNoun}s back from the ${spec.vendor}`,
        auth: "both",
        scopes: ["integrations:write"],
        query: ConnectionQuery,
        responses: { 200: { description: "What was checked and changed", schema: PullReply }, ...vendorErrors },
        examples: [
          {
            name: "pull",
            request: { params },
            response: { status: 200, body: { checked: 1, changed: 1, items: [{ ...exampleItem(spec), remoteStatus: "done" }] } }
          }
        ],
        handler: ({ params, query }, context) =>
          Effect.gen(function* () {
            yield* workspaceRole(context, params.workspaceId, "member")
            return yield* pullItems(yield* connectionFor(params.workspaceId, spec.vendor, query.connectionId))
          })
      }),
    items: () =>
      operation({
        ...common,
        operationId: `list${spec.title}Items`,
        method: "GET",
        path: `${base}/items`,
        summary: `The ${spec.itemNoun}s pushed through the connection, with their last pulled state`,
        auth: "both",
        scopes: ["integrations:read"],
        query: ConnectionQuery,
        responses: {
          200: { description: "Pushed items", schema: Schema.Struct({ items: Schema.Array(VendorItem) }) },
          409: vendorErrors[409]
        },
        examples: [{ name: "list", request: { params }, response: { status: 200, body: { items: [exampleItem(spec)] } } }],
        handler: ({ params, query }, context) =>
          Effect.gen(function* () {
            yield* workspaceRole(context, params.workspaceId)
            const connection = yield* connectionFor(params.workspaceId, spec.vendor, query.connectionId)
            return { items: yield* itemsOf(connection.id) }
          })
      })
  }
  return spec.capabilities.map((capability) => byCapability[capability]())
}

const taskCapabilities: ReadonlyArray<Capability> = ["destinations", "mapping", "push", "pull"]
const documentCapabilities: ReadonlyArray<Capability> = [...taskCapabilities, "items"]

export const vendorResourceTags: ReadonlyArray<VendorResourceTag> = [
  {
    tag: "Tracker Resource V 2",
    version: "v2",
    vendor: "tracker",
    title: "Tracker",
    destinations: ["projects", "project"],
    capabilities: taskCapabilities,
    exampleDestination: { id: "10000", name: "Engineering", key: "ENG" },
    itemNoun: "action item"
  },
  {
    tag: "Taskapp Resource V 1",
    version: "v1",
    vendor: "taskapp",
    title: "Taskapp",
    destinations: ["projects", "project"],
    capabilities: taskCapabilities,
    exampleDestination: { id: "1204567890", name: "Launch", key: null },
    itemNoun: "action item"
  },
  {
    tag: "Tablebase Resource V 2",
    version: "v2",
    vendor: "tablebase",
    title: "Tablebase",
    destinations: ["tables", "table"],
    capabilities: taskCapabilities,
    exampleDestination: { id: "tblActionItems", name: "Action items", key: null },
    itemNoun: "action item"
  },
  {
    tag: "Docspace Resource V 1",
    version: "v1",
    vendor: "docspace",
    title: "Docspace",
    destinations: ["spaces", "space"],
    capabilities: documentCapabilities,
    exampleDestination: { id: "98305", name: "Meeting notes", key: "NOTES" },
    itemNoun: "note"
  },
  {
    tag: "Pm Resource V 1",
    version: "v1",
    vendor: "pm",
    title: "Pm",
    destinations: ["projects", "project"],
    capabilities: documentCapabilities,
    exampleDestination: { id: "proj-42", name: "Mobile app", key: null },
    itemNoun: "action item"
  },
  {
    tag: "Chatapp Resource",
    version: "v1",
    vendor: "chatapp",
    title: "Chatapp",
    destinations: ["channels", "channel"],
    capabilities: ["destinations", "push"],
    exampleDestination: { id: "C024BE91L", name: "launch", key: null },
    itemNoun: "message"
  }
]

export const vendorOperations = vendorResourceTags.flatMap(vendorResourceOperations)
