/**
 * The generated notes' Markdown subset (`## ` headings, `- ` bullets and
 * paragraphs) as elements: enough for the summarizer's enhanced notes without
 * shipping a Markdown parser to every call page.
 */
import type { ReactNode } from "react"

export const Markdownish = ({ text, headingLevel = 3 }: { readonly text: string; readonly headingLevel?: 3 | 4 }) => {
  const blocks: Array<ReactNode> = []
  let bullets: Array<string> = []
  const flush = () => {
    if (bullets.length === 0) return
    const items = bullets
    blocks.push(
      <ul key={`ul${blocks.length}`}>
        {items.map((item, index) => (
          <li key={index}>{item}</li>
        ))}
      </ul>
    )
    bullets = []
  }
  for (const line of text.split("\n")) {
    const trimmed = line.trim()
    if (trimmed.startsWith("- ") || trimmed.startsWith("* ")) {
      bullets.push(trimmed.slice(2))
      continue
    }
    flush()
    if (trimmed === "") continue
    const heading = /^#{1,6}\s+(.*)$/.exec(trimmed)
    const Heading = headingLevel === 3 ? "h3" : "h4"
    blocks.push(heading ? <Heading key={blocks.length}>{heading[1]}</Heading> : <p key={blocks.length}>{trimmed}</p>)
  }
  flush()
  return <div className="markdownish">{blocks}</div>
}
