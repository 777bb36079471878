/**
 * A task's custom fields (those its space, folder and list define), each
 * with an input for its type: a checkbox, a dropdown of its options, a number,
 * a date or text (saved when it changes or the input is left; each input
 * shows the change at once and the saved value once read back); labels and
 * people are shown as they are. Clearing an optional field deletes its value.
 * Live: a value set elsewhere is a task event, which refetches this read.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FocusEvent, useState } from "react"
import { useParams } from "react-router"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { useWorkspaceRole } from "../common/useMe.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage } from "../../ui/Status.tsx"
import { optionsOf } from "./FieldDefinitions.tsx"

type Fields = NonNullable<ReturnType<typeof useTaskFields>["data"]>
type Field = Fields["items"][number]

const useTaskFields = (taskId: string) => $api.useQuery("get", "/pm/v1/tasks/{taskId}/custom-fields", { params: { path: { taskId } } })

/** How a value reads: option and people values are objects with a name. */
const nameOf = (v: unknown): string => (typeof v === "object" && v !== null && "name" in v ? String(v.name) : String(v))
const shown = (value: unknown): string =>
  value === null || value === undefined ? "" : Array.isArray(value) ? value.map(nameOf).join(", ") : nameOf(value)

/** A dropdown's value is read back as its option ({ id, name }); it is set by the option's id. */
const optionIdOf = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "object" && value !== null && "id" in value ? String(value.id) : ""

const NUMERIC = new Set<Field["type"]>(["number", "currency", "rating"])
const TEXTUAL = new Set<Field["type"]>(["text", "email", "url", "phone"])

export const CustomFields = ({ taskId, archived }: { readonly taskId: string; readonly archived: boolean }) => {
  const { workspaceId = "" } = useParams()
  const { role } = useWorkspaceRole(workspaceId)
  const fields = useTaskFields(taskId)
  const queryClient = useQueryClient()
  const [error, setError] = useState("")
  // Viewers read the values; an archived task keeps them as they are.
  const canEdit = !archived && role !== undefined && role !== "viewer"
  if (fields.error) return <ErrorMessage error={fields.error} what="The custom fields could not be loaded" />
  const items = fields.data?.items ?? []
  if (items.length === 0) return null

  const save = async (field: Field, value: unknown) => {
    setError("")
    try {
      if (value === null) {
        const result = await client.DELETE("/pm/v1/tasks/{taskId}/custom-fields/{fieldId}", {
          params: { path: { taskId, fieldId: field.fieldId } }
        })
        data(result)
      } else
        data(
          await client.PUT("/pm/v1/tasks/{taskId}/custom-fields/{fieldId}", {
            params: { path: { taskId, fieldId: field.fieldId } },
            body: { value }
          })
        )
      announce(`${field.name} saved`)
    } catch (cause) {
      setError(`${field.name}: ${messageOf(cause)}`)
    } finally {
      await queryClient.invalidateQueries({ queryKey: ["get", "/pm/v1/tasks/{taskId}/custom-fields"] })
    }
  }

  /** A typed value saved when the input is left changed (empty clears it). */
  const onLeave = (field: Field) => (event: FocusEvent<HTMLInputElement>) => {
    const text = event.currentTarget.value.trim()
    if (text === shown(field.value)) return
    if (text === "") return void save(field, null)
    if (NUMERIC.has(field.type)) return void save(field, Number(text))
    return void save(field, text)
  }

  const input = (field: Field) => {
    const label = `${field.name}${field.required ? " (required)" : ""}`
    if (field.type === "checkbox")
      return (
        <label className="check">
          <input
            type="checkbox"
            key={String(field.value)}
            defaultChecked={field.value === true}
            disabled={!canEdit}
            onChange={(event) => void save(field, event.target.checked)}
          />
          {label}
        </label>
      )
    if (field.type === "dropdown")
      return (
        <label className="field">
          <span>{label}</span>
          <select
            key={shown(field.value)}
            defaultValue={optionIdOf(field.value)}
            disabled={!canEdit}
            onChange={(event) => void save(field, event.target.value === "" ? null : event.target.value)}
          >
            <option value="">—</option>
            {optionsOf(field).map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
      )
    if (field.type === "date")
      return (
        <label className="field">
          <span>{label}</span>
          <input
            type="date"
            defaultValue={typeof field.value === "string" ? field.value.slice(0, 10) : ""}
            disabled={!canEdit}
            onChange={(event) => void save(field, event.target.value === "" ? null : event.target.value)}
          />
        </label>
      )
    if (NUMERIC.has(field.type) || TEXTUAL.has(field.type))
      return (
        <label className="field">
          <span>{label}</span>
          <input
            key={shown(field.value)}
            type={NUMERIC.has(field.type) ? "number" : field.type === "email" ? "email" : field.type === "url" ? "url" : "text"}
            defaultValue={shown(field.value)}
            readOnly={!canEdit}
            onBlur={canEdit ? onLeave(field) : undefined}
          />
        </label>
      )
    return (
      <p>
        <span className="label">{label}:</span> {shown(field.value) || "—"}
      </p>
    )
  }

  return (
    <section aria-labelledby={`fields-${taskId}`} className="custom-fields">
      <h3 id={`fields-${taskId}`}>Custom fields</h3>
      <ul className="plain">
        {items.map((field) => (
          <li key={field.fieldId}>{input(field)}</li>
        ))}
      </ul>
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}
