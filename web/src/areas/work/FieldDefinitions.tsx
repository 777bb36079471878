/**
 * A list's custom field definitions: those it inherits (read only, named
 * with where they come from) and its own, which members create (any type the
 * API takes; dropdown and labels with their options), rename, reorder (move
 * up / down, keyboard operable) and give or take options; a workspace admin
 * deletes one (asked twice: every value of it goes too). A change refetches
 * the tasks' values, so an open task drawer shows the new field at once.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { useParams } from "react-router"
import { $api, client, data } from "../../api/client.ts"
import type { components } from "../../api/generated/pm.ts"
import { RenameForm } from "../common/RenameForm.tsx"
import { movedBy } from "../common/reorder.ts"
import { useWorkspaceRole } from "../common/useMe.ts"
import { useChange } from "../common/useChange.ts"
import { ErrorMessage } from "../../ui/Status.tsx"

type Field = components["schemas"]["AvailableCustomField"]
type FieldType = Field["type"]

const TYPES: ReadonlyArray<{ readonly type: FieldType; readonly label: string }> = [
  { type: "text", label: "Text" },
  { type: "number", label: "Number" },
  { type: "date", label: "Date" },
  { type: "dropdown", label: "Dropdown" },
  { type: "labels", label: "Labels" },
  { type: "checkbox", label: "Checkbox" },
  { type: "email", label: "E-mail" },
  { type: "url", label: "Link" },
  { type: "phone", label: "Phone" },
  { type: "currency", label: "Currency" },
  { type: "rating", label: "Rating" },
  { type: "users", label: "People" }
]
const WITH_OPTIONS = new Set<FieldType>(["dropdown", "labels"])

const typeLabel = (type: FieldType) => TYPES.find((t) => t.type === type)?.label ?? type

/** The options of a dropdown or labels field (its configuration differs per type). */
export const optionsOf = (field: { readonly config: unknown }): ReadonlyArray<{ readonly id: string; readonly name: string }> => {
  const config = field.config
  if (typeof config !== "object" || config === null || !("options" in config) || !Array.isArray(config.options)) return []
  return config.options.filter(
    (o: unknown): o is { id: string; name: string } =>
      typeof o === "object" && o !== null && "id" in o && "name" in o && typeof o.id === "string" && typeof o.name === "string"
  )
}

const fieldsKey = (listId: string) => ["get", "/pm/v1/lists/{listId}/custom-fields", { params: { path: { listId } } }] as const

const OwnField = ({
  field,
  listId,
  first,
  last,
  canDelete,
  run,
  move
}: {
  readonly field: Field
  readonly listId: string
  readonly first: boolean
  readonly last: boolean
  readonly canDelete: boolean
  readonly run: (what: string, call: () => Promise<unknown>) => Promise<boolean>
  readonly move: (field: Field, by: -1 | 1) => void
}) => {
  const [renaming, setRenaming] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const path = { listId, fieldId: field.id }
  const rename = async (name: string) => {
    const ok = await run(`${field.name} renamed to ${name}`, async () =>
      data(await client.PATCH("/pm/v1/lists/{listId}/custom-fields/{fieldId}", { params: { path }, body: { name } }))
    )
    if (ok) setRenaming(false)
  }
  const addOption = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const name = String(new FormData(form).get("option") ?? "").trim()
    if (name === "") return
    const ok = await run(`Option ${name} added to ${field.name}`, async () =>
      data(await client.POST("/pm/v1/lists/{listId}/custom-fields/{fieldId}/options", { params: { path }, body: { name } }))
    )
    if (ok) form.reset()
  }
  return (
    <li aria-label={field.name} className="field-definition">
      {renaming ? (
        <RenameForm current={field.name} label="Field name" onRename={(name) => void rename(name)} onCancel={() => setRenaming(false)} />
      ) : (
        <p className="card-title">
          {field.name} <span className="muted small">· {typeLabel(field.type)}</span>
        </p>
      )}
      {WITH_OPTIONS.has(field.type) ? (
        <>
          <ul className="plain inline" aria-label={`Options of ${field.name}`}>
            {optionsOf(field).map((option) => (
              <li key={option.id} className="tag">
                {option.name}{" "}
                <button
                  type="button"
                  className="link"
                  aria-label={`Remove option ${option.name} of ${field.name}`}
                  onClick={() =>
                    void run(`Option ${option.name} removed`, async () =>
                      data(
                        await client.DELETE("/pm/v1/lists/{listId}/custom-fields/{fieldId}/options/{optionId}", {
                          params: { path: { ...path, optionId: option.id } }
                        })
                      )
                    )
                  }
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
          <form className="inline-form" onSubmit={(event) => void addOption(event)}>
            <label className="field">
              <span>{`New option of ${field.name}`}</span>
              <input name="option" maxLength={100} />
            </label>
            <button type="submit">Add option</button>
          </form>
        </>
      ) : null}
      <div className="row">
        <button type="button" onClick={() => setRenaming(true)}>
          Rename <span className="visually-hidden">{field.name}</span>
        </button>
        <button type="button" disabled={first} onClick={() => move(field, -1)}>
          Move up <span className="visually-hidden">{field.name}</span>
        </button>
        <button type="button" disabled={last} onClick={() => move(field, 1)}>
          Move down <span className="visually-hidden">{field.name}</span>
        </button>
        {canDelete ? (
          confirming ? (
            <>
              <button
                type="button"
                className="danger"
                onClick={() =>
                  void run(`${field.name} deleted`, async () =>
                    data(await client.DELETE("/pm/v1/lists/{listId}/custom-fields/{fieldId}", { params: { path } }))
                  )
                }
              >
                {`Delete ${field.name} and all its values`}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              Delete <span className="visually-hidden">{field.name}</span>
            </button>
          )
        ) : null}
      </div>
    </li>
  )
}

export const FieldDefinitions = ({ listId }: { readonly listId: string }) => {
  const { workspaceId = "" } = useParams()
  const { role, isAdmin } = useWorkspaceRole(workspaceId)
  const queryClient = useQueryClient()
  const fields = $api.useQuery("get", "/pm/v1/lists/{listId}/custom-fields", { params: { path: { listId } } })
  const [type, setType] = useState<FieldType>("text")
  const { error, run } = useChange(async () => {
    await queryClient.invalidateQueries({ queryKey: fieldsKey(listId) })
    // A new or renamed field shows in an open task drawer at once.
    await queryClient.invalidateQueries({ queryKey: ["get", "/pm/v1/tasks/{taskId}/custom-fields"] })
  })
  const canEdit = role !== undefined && role !== "viewer"

  const items = fields.data?.items ?? []
  const own = items.filter((f) => !f.inherited)
  const inherited = items.filter((f) => f.inherited)

  const move = (field: Field, by: -1 | 1) => {
    const ids = movedBy(
      own.map((f) => f.id),
      field.id,
      by
    )
    if (ids === undefined) return
    void run(`${field.name} moved ${by < 0 ? "up" : "down"}`, async () =>
      data(await client.PUT("/pm/v1/lists/{listId}/custom-fields/order", { params: { path: { listId } }, body: { fieldIds: ids } }))
    )
  }

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const values = new FormData(form)
    const name = String(values.get("name") ?? "").trim()
    const options = String(values.get("options") ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter((o) => o !== "")
    if (name === "") return
    const ok = await run(`${name} created`, async () =>
      data(
        await client.POST("/pm/v1/lists/{listId}/custom-fields", {
          params: { path: { listId } },
          body: { name, type, ...(WITH_OPTIONS.has(type) ? { options: options.map((o) => ({ name: o })) } : {}) }
        })
      )
    )
    if (ok) form.reset()
  }

  return (
    <details className="panel field-definitions">
      <summary>Custom fields</summary>
      {fields.error ? <ErrorMessage error={fields.error} what="The custom fields could not be loaded" /> : null}
      {fields.data && items.length === 0 ? <p className="muted">No custom fields yet.</p> : null}
      {inherited.length > 0 ? (
        <ul className="plain" aria-label="Inherited custom fields">
          {inherited.map((field) => (
            <li key={field.id}>
              {field.name}{" "}
              <span className="muted small">
                · {typeLabel(field.type)} · from the {field.scopeType}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {own.length > 0 ? (
        <ol className="card-list" aria-label="Custom fields of this list">
          {own.map((field, index) =>
            canEdit ? (
              <OwnField
                key={field.id}
                field={field}
                listId={listId}
                first={index === 0}
                last={index === own.length - 1}
                canDelete={isAdmin}
                run={run}
                move={move}
              />
            ) : (
              <li key={field.id} aria-label={field.name}>
                {field.name} <span className="muted small">· {typeLabel(field.type)}</span>
              </li>
            )
          )}
        </ol>
      ) : null}
      {canEdit ? (
        <form className="inline-form" aria-label="New custom field" onSubmit={(event) => void create(event)}>
          <label className="field">
            <span>Field name</span>
            <input name="name" required maxLength={100} />
          </label>
          <label className="field">
            <span>Type</span>
            <select value={type} onChange={(event) => setType(TYPES.find((t) => t.type === event.target.value)?.type ?? "text")}>
              {TYPES.map((t) => (
                <option key={t.type} value={t.type}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
          {WITH_OPTIONS.has(type) ? (
            <label className="field">
              <span>Options (separated by commas)</span>
              <input name="options" maxLength={2000} />
            </label>
          ) : null}
          <button type="submit">Create field</button>
        </form>
      ) : null}
      <p className="error" role="alert">
        {error}
      </p>
    </details>
  )
}
