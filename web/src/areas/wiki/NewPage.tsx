/** A form that creates a page at the top of the space and opens it. */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { useNavigate, useParams } from "react-router"
import { client, data, messageOf } from "../../api/client.ts"
import { pageHref } from "../common/links.ts"
import { treeKey } from "./PageTree.tsx"

export const NewPage = ({ spaceId }: { readonly spaceId: string }) => {
  const { workspaceId = "" } = useParams()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [error, setError] = useState("")
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const title = String(new FormData(event.currentTarget).get("title") ?? "").trim()
    if (title === "") return
    setError("")
    try {
      const page = data(await client.POST("/wiki/v1/spaces/{spaceId}/pages", { params: { path: { spaceId } }, body: { title } }))
      await queryClient.invalidateQueries({ queryKey: treeKey(spaceId) })
      navigate(pageHref(workspaceId, spaceId, page.id))
    } catch (cause) {
      setError(messageOf(cause, "The page could not be created"))
    }
  }
  return (
    <form className="new-page" onSubmit={create}>
      <label className="field">
        <span>New page</span>
        <input type="text" name="title" required maxLength={255} placeholder="Page title" />
      </label>
      <button type="submit">Create</button>
      <p className="error" role="alert">
        {error}
      </p>
    </form>
  )
}
