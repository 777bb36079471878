/** The signed-in user's profile (name, title, company, pronouns, bio), shared by all workspaces. */
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { client } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { useHubMe } from "../common/useMe.ts"

type Me = NonNullable<ReturnType<typeof useHubMe>["data"]>

const ProfileForm = ({ me }: { readonly me: Me }) => {
  const queryClient = useQueryClient()
  const [name, setName] = useState(me.name)
  const [jobTitle, setJobTitle] = useState(me.jobTitle ?? "")
  const [company, setCompany] = useState(me.company ?? "")
  const [pronouns, setPronouns] = useState(me.pronouns ?? "")
  const [bio, setBio] = useState(me.bio ?? "")
  const orNull = (text: string) => (text.trim() === "" ? null : text)
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        client.PATCH("/hub/v1/users/me", {
          body: { name, jobTitle: orNull(jobTitle), company: orNull(company), pronouns: orNull(pronouns), bio: orNull(bio) }
        })
      ),
    onSuccess: (updated) => {
      queryClient.setQueryData(["hub", "me"], updated)
      announce("Profile saved")
    }
  })
  return (
    <form
      className="stack narrow-form"
      onSubmit={(event) => {
        event.preventDefault()
        save.mutate()
      }}
    >
      <p className="muted">Signed in as {me.email}</p>
      <label>
        Name <input value={name} onChange={(event) => setName(event.currentTarget.value)} required maxLength={200} autoComplete="name" />
      </label>
      <label>
        Job title <input value={jobTitle} onChange={(event) => setJobTitle(event.currentTarget.value)} maxLength={200} />
      </label>
      <label>
        Company{" "}
        <input value={company} onChange={(event) => setCompany(event.currentTarget.value)} maxLength={200} autoComplete="organization" />
      </label>
      <label>
        Pronouns <input value={pronouns} onChange={(event) => setPronouns(event.currentTarget.value)} maxLength={50} />
      </label>
      <label>
        Bio <textarea rows={3} value={bio} onChange={(event) => setBio(event.currentTarget.value)} maxLength={2000} />
      </label>
      <button type="submit" disabled={save.isPending}>
        Save profile
      </button>
      {save.isError ? <ErrorMessage error={save.error} /> : null}
    </form>
  )
}

export const Profile = () => {
  const me = useHubMe()
  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      {me.isPending ? <Loading what="your profile" /> : null}
      {me.isError ? <ErrorMessage error={me.error} what="Profile" /> : null}
      {me.data ? <ProfileForm me={me.data} /> : null}
    </section>
  )
}
