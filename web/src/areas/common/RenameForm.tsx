/** An inline form renaming something (`label` names the text field, the form is "Rename <current>"), with Cancel. */
import type { FormEvent } from "react"

export const RenameForm = ({
  current,
  label,
  maxLength = 100,
  onRename,
  onCancel
}: {
  readonly current: string
  readonly label: string
  readonly maxLength?: number
  /** Called with the new name (trimmed, not empty, changed); the caller closes the form once saved. */
  readonly onRename: (name: string) => void
  readonly onCancel: () => void
}) => {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim()
    if (name === "" || name === current) return onCancel()
    onRename(name)
  }
  return (
    <form className="inline-form" aria-label={`Rename ${current}`} onSubmit={submit}>
      <label className="field">
        <span>{label}</span>
        <input name="name" defaultValue={current} required maxLength={maxLength} />
      </label>
      <button type="submit">Save name</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  )
}
