/**
 * A labelled textarea that offers the workspace's members while an `@word`
 * is being typed (a combobox with its listbox; ↑ ↓ pick, Enter or Tab
 * choose, Escape closes). Choosing one writes `@their-email`, which the
 * servers (pm task comments, wiki comments) turn into a mention.
 */
import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from "react"

export interface Mentionable {
  readonly userId: string
  readonly name: string
  readonly email: string
}

/** The `@word` being typed just before the caret, if any. */
const mentionAt = (text: string, caret: number) => /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, caret))

/**
 * Members whose name or e-mail contains the query, those where it starts a word
 * first: "@Be" offers Ben before someone whose address merely contains "be".
 */
const rankMembers = (members: ReadonlyArray<Mentionable>, query: string) => {
  const needle = query.toLowerCase()
  const startsAWord = (m: Mentionable) =>
    [...m.name.toLowerCase().split(/\s+/), m.email.toLowerCase()].some((word) => word.startsWith(needle))
  const matching = members.filter((m) => `${m.name} ${m.email}`.toLowerCase().includes(needle))
  return [...matching.filter(startsAWord), ...matching.filter((m) => !startsAWord(m))]
}

export const MentionField = ({
  label,
  value,
  onChange,
  members,
  rows = 3,
  name,
  maxLength
}: {
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly members: ReadonlyArray<Mentionable>
  readonly rows?: number
  readonly name?: string
  readonly maxLength?: number
}) => {
  const [query, setQuery] = useState<string | undefined>(undefined)
  const [highlight, setHighlight] = useState(0)
  const input = useRef<HTMLTextAreaElement>(null)
  const listId = useId()
  // Where the caret goes once a chosen mention is in the value. Placed in the
  // commit that writes the value, before the next keystroke is handled: a
  // later frame would move a fast typist's caret behind what they just typed.
  const caretAfterPick = useRef<number | undefined>(undefined)
  useLayoutEffect(() => {
    if (caretAfterPick.current === undefined || input.current === null) return
    input.current.focus()
    input.current.setSelectionRange(caretAfterPick.current, caretAfterPick.current)
    caretAfterPick.current = undefined
  })

  const suggestions = query === undefined ? [] : rankMembers(members, query).slice(0, 6)

  const track = (next: string, caret: number) => {
    onChange(next)
    setQuery(mentionAt(next, caret)?.[1])
    setHighlight(0)
  }

  const pick = (member: Mentionable) => {
    const caret = input.current?.selectionStart ?? value.length
    const before = value.slice(0, caret).replace(/@([^\s@]*)$/, `@${member.email} `)
    caretAfterPick.current = before.length
    onChange(before + value.slice(caret))
    setQuery(undefined)
  }

  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions.length === 0) return
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault()
      setHighlight((highlight + (event.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length)
    } else if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault()
      pick(suggestions[highlight]!)
    } else if (event.key === "Escape") {
      event.preventDefault()
      setQuery(undefined)
    }
  }

  const open = suggestions.length > 0
  return (
    <div className="mention-field">
      <label className="field">
        <span>{label}</span>
        <textarea
          ref={input}
          name={name}
          rows={rows}
          value={value}
          maxLength={maxLength}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open ? `${listId}-${highlight}` : undefined}
          aria-describedby={`${listId}-help`}
          onChange={(event) => track(event.target.value, event.target.selectionStart)}
          onKeyDown={onKey}
          onBlur={() => setQuery(undefined)}
        />
      </label>
      <p id={`${listId}-help`} className="muted small">
        Type @ to mention a member.
      </p>
      <div id={listId} role="listbox" aria-label="Members to mention" className="suggestions" hidden={!open}>
        {suggestions.map((member, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's keys (↑ ↓ Enter) pick options
          <div
            key={member.userId}
            id={`${listId}-${index}`}
            role="option"
            tabIndex={-1}
            aria-selected={index === highlight}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(member)}
          >
            {member.name} <span className="muted">{member.email}</span>
          </div>
        ))}
      </div>
    </div>
  )
}
