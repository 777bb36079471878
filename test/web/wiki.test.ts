/**
 * The wiki area in Chromium (the rig of browser.test.ts; the live editor
 * itself is covered there), selecting by role and accessible name: the page
 * tree moved from the keyboard and by drag and drop; search with highlighted
 * snippets; import of a Markdown file and export of a page; page permissions
 * (a member listed as a viewer reads the page but cannot change who may use
 * it); public sharing with its visitor preview, offered to space admins only.
 * Two people in one space: pages one creates, moves, renames and archives
 * change the other's tree without a reload (the space's live stream); comment
 * threads anchored to text, replies, resolve and reopen reach the other live;
 * a version is viewed and restored into both open editors. A comment that
 * mentions a member picked from the suggestions, edited and deleted by its
 * author (a reply too), live for the other; a version compared with the page
 * now, and the other person's version list following a restore without a
 * reload. The trash: archived pages restored and deleted for good, live for
 * another reader. A new space from the form, its members and roles (added,
 * changed, removed; read-only for a space viewer). The page-permission select
 * is not cut off at 1,400 px. The wiki pages (trash, members and roles
 * included) at 390 and 1,400 px: a screenshot each and no serious or critical
 * axe-core violation.
 */
import { readFile } from "node:fs/promises"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { atWidths, screenshot, seriousViolations } from "./Audit.ts"
import { BrowserRig, chromiumAvailable, type User } from "./BrowserRig.ts"

describe.skipIf(!chromiumAvailable("web wiki tests"))("the wiki area in Chromium", () => {
  let rig: BrowserRig
  let owner: User
  let member: User
  let workspaceId: string
  let space: { id: string }
  const pages = new Map<string, string>()
  /** The page with comment threads (from the comments test), for the axe check. */
  let planRoute = ""
  const call = (user: User, method: string, url: string, body?: unknown) => rig.call(user, method, url, body)
  // Strict about refused requests too: a page of the wiki asks only for what the user may read.
  const errors = () => [...rig.consoleErrors, ...rig.pageErrors].filter((e) => !/WebSocket|ERR_/.test(e))
  const parentOf = async (title: string) => (await call(owner, "GET", `/wiki/v1/pages/${pages.get(title)}`)).parentPageId
  const tree = (page: Page) => page.getByRole("list", { name: "Pages" })
  /**
   * Whether the select labelled `label` shows its chosen option's whole text and stays inside its section
   * (run in the page as a script: the test's own TypeScript has no DOM types).
   */
  const selectFits = (page: Page, label: string) =>
    page.evaluate<{ textFits: boolean; insidePanel: boolean }>(`(() => {
      const select = [...document.querySelectorAll("select")].find((s) => s.labels[0]?.textContent.startsWith(${JSON.stringify(label)}))
      const style = getComputedStyle(select)
      const context = document.createElement("canvas").getContext("2d")
      context.font = style.font
      const text = context.measureText(select.selectedOptions[0]?.text ?? "").width
      // The room for the text: the box less its padding and the drop-down arrow (about 1.5 em).
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1.5 * parseFloat(style.fontSize)
      const box = select.getBoundingClientRect()
      const panel = select.closest("section").getBoundingClientRect()
      return { textFits: text <= room, insidePanel: box.left >= panel.left && box.right <= panel.right }
    })()`)

  beforeAll(async () => {
    rig = await BrowserRig.start("Wiki team")
    ;({ owner, member, workspaceId } = rig)
    space = await call(owner, "POST", "/wiki/v1/spaces", { workspaceId, name: "Handbook", key: "HB" })
    const seeds: Array<[string, string]> = [
      ["Welcome", "# Welcome\n\nThe release train leaves every second Tuesday."],
      ["Onboarding", "# Onboarding\n\nYour first week."],
      ["Laptop setup", "# Laptop setup\n\nInstall the tools."]
    ]
    for (const [title, markdown] of seeds)
      pages.set(title, (await call(owner, "POST", `/wiki/v1/spaces/${space.id}/pages`, { title, markdown })).id)
  }, 120_000)

  afterAll(async () => {
    await rig?.close()
  })

  it("moves pages in the tree from the keyboard and by drag and drop", async () => {
    const ann = await rig.signedIn(owner, `w/${workspaceId}/wiki/${space.id}/${pages.get("Welcome")}`, 1400)
    const laptop = tree(ann).getByRole("link", { name: "Laptop setup" })
    await laptop.waitFor()
    // Alt+Right: under the page above it (Onboarding).
    await laptop.focus()
    await ann.keyboard.press("Alt+ArrowRight")
    await expect.poll(() => parentOf("Laptop setup"), { timeout: 10_000 }).toBe(pages.get("Onboarding"))
    await tree(ann)
      .getByRole("listitem")
      .filter({ hasText: "Onboarding" })
      .getByRole("list")
      .getByRole("link", { name: "Laptop setup" })
      .waitFor()
    // Focus stays on the moved page; Alt+Left takes it back to the top level.
    await ann.keyboard.press("Alt+ArrowLeft")
    await expect.poll(() => parentOf("Laptop setup"), { timeout: 10_000 }).toBe(null)
    // Dragged onto Welcome: under it.
    await tree(ann)
      .getByRole("link", { name: "Laptop setup" })
      .dragTo(tree(ann).getByRole("link", { name: "Welcome" }))
    await expect.poll(() => parentOf("Laptop setup"), { timeout: 10_000 }).toBe(pages.get("Welcome"))
    await tree(ann)
      .getByRole("listitem")
      .filter({ hasText: "Welcome" })
      .getByRole("list")
      .getByRole("link", { name: "Laptop setup" })
      .waitFor()
    await screenshot(ann, "wiki-tree")
    expect(errors()).toEqual([])
  }, 90_000)

  it("searches with highlighted snippets, imports a Markdown file and exports a page", async () => {
    const ann = await rig.signedIn(owner, `w/${workspaceId}/wiki/${space.id}`, 1400)
    await ann.getByRole("searchbox", { name: "Search the wiki" }).fill("release train")
    await ann.getByRole("button", { name: "Search" }).click()
    await ann.getByRole("heading", { name: "Search the wiki", level: 1 }).waitFor()
    const results = ann.getByRole("list", { name: "Search results" })
    await results.getByRole("link", { name: "Welcome" }).waitFor({ timeout: 10_000 })
    await ann.getByText(/1 page matches/).waitFor()
    const marked = await results.locator("mark").allTextContents()
    expect(marked.map((m) => m.toLowerCase())).toEqual(expect.arrayContaining(["release", "train"]))
    await screenshot(ann, "wiki-search")
    await results.getByRole("link", { name: "Welcome" }).click()
    // The page title and the page's own first heading are both "Welcome" once its content has loaded.
    await ann.getByRole("heading", { name: "Welcome", level: 1 }).first().waitFor()

    // Import a Markdown file: it becomes a page, opened at once.
    await ann.getByText("Import pages").click()
    await ann.getByLabel("Markdown, HTML or zip file").setInputFiles({
      name: "Release checklist.md",
      mimeType: "text/markdown",
      buffer: Buffer.from("# Release checklist\n\n- Tag the build\n- Write the notes\n")
    })
    await ann.getByRole("button", { name: "Import", exact: true }).click()
    await tree(ann).getByRole("link", { name: "Release checklist" }).waitFor({ timeout: 10_000 })
    await ann.getByRole("heading", { name: "Release checklist", level: 1 }).first().waitFor()
    await ann.locator(".tiptap").getByText("Tag the build").waitFor({ timeout: 10_000 })

    // Export it as Markdown: the download holds the page.
    const [download] = await Promise.all([ann.waitForEvent("download"), ann.getByRole("button", { name: "Download as Markdown" }).click()])
    expect(download.suggestedFilename()).toBe("Release-checklist.md")
    const text = await readFile((await download.path())!, "utf8")
    expect(text).toContain("Tag the build")
    expect(errors()).toEqual([])
  }, 90_000)

  it("restricts a page to listed people; a listed viewer reads it without the controls; an admin shares it publicly", async () => {
    const route = `w/${workspaceId}/wiki/${space.id}/${pages.get("Onboarding")}`
    const ann = await rig.signedIn(owner, route, 1400)
    const permissions = ann.getByRole("region", { name: "Permissions" })
    // At 1,400 px the select shows its whole choice, inside its panel (it was cut off in the tools column).
    await permissions.getByLabel("Who may see and edit this page").selectOption("edit")
    expect(await selectFits(ann, "Who may see and edit this page")).toEqual({ textFits: true, insidePanel: true })
    await permissions.getByLabel("Who may see and edit this page").selectOption("view")
    expect(await selectFits(ann, "Who may see and edit this page")).toEqual({ textFits: true, insidePanel: true })
    await permissions.getByLabel("E-mail or role (admin, member, viewer)").fill(member.email)
    await permissions.getByLabel("Access").selectOption("view")
    await permissions.getByRole("button", { name: "Add" }).click()
    await permissions.getByRole("list", { name: "Listed people and roles" }).getByText("Ben: can view").waitFor({ timeout: 10_000 })
    await expect
      .poll(async () => (await call(owner, "GET", `/wiki/v1/pages/${pages.get("Onboarding")}/permissions`)).restriction)
      .toBe("view")

    const ben = await rig.signedIn(member, route, 390)
    await ben.getByRole("heading", { name: "Onboarding", level: 1 }).first().waitFor()
    const his = ben.getByRole("region", { name: "Permissions" })
    await his.getByText("You can read this page but not change who may use it.").waitFor()
    expect(await his.getByLabel("Who may see and edit this page").isDisabled()).toBe(true)
    expect(await his.getByRole("button", { name: "Add" }).count()).toBe(0)
    // Sharing publicly is for space admins.
    await ben.getByRole("region", { name: "Public sharing" }).getByText("Space admins share pages publicly.").waitFor()
    await screenshot(ben, "wiki-viewer")

    // Ann opens the page again to everyone in the space and shares it publicly: the visitor preview shows its text.
    await permissions.getByLabel("Who may see and edit this page").selectOption("open")
    const sharing = ann.getByRole("region", { name: "Public sharing" })
    await sharing.getByRole("button", { name: "Share publicly" }).click()
    await sharing.getByText("Anyone with the link can read this page (and its subpages).").waitFor({ timeout: 10_000 })
    await sharing.getByText("Preview as a visitor").click()
    await sharing.getByRole("article", { name: "Public preview" }).getByText("Your first week.").waitFor()
    const visitor = await rig.atrium.request("GET", `/wiki/v1/public/pages/${pages.get("Onboarding")}`)
    expect(visitor.status).toBe(200)
    await screenshot(ann, "wiki-share")
    expect(errors()).toEqual([])
  }, 90_000)

  it("pages another person creates, moves, renames and archives change the tree without a reload", async () => {
    const shared = await call(owner, "POST", "/wiki/v1/spaces", { workspaceId, name: "Team room", key: "TR" })
    const start = (await call(owner, "POST", `/wiki/v1/spaces/${shared.id}/pages`, { title: "Start", markdown: "Hello." })).id
    const route = `w/${workspaceId}/wiki/${shared.id}/${start}`
    const [ann, ben] = await Promise.all([rig.signedIn(owner, route, 1400), rig.signedIn(member, route, 390)])
    for (const page of [ann, ben]) await page.getByText("● live").waitFor({ timeout: 20_000 })

    // Ann creates a page from the form: Ben's tree shows it.
    await ann.getByLabel("New page").fill("Agenda")
    await ann.getByRole("button", { name: "Create", exact: true }).click()
    await tree(ben).getByRole("link", { name: "Agenda" }).waitFor({ timeout: 10_000 })
    const agenda = (await call(owner, "GET", `/wiki/v1/spaces/${shared.id}/tree`)).items.find(
      (node: { title: string }) => node.title === "Agenda"
    ).id

    // Ann moves it under Start from the keyboard: Ben sees it there.
    await tree(ann).getByRole("link", { name: "Agenda" }).focus()
    await ann.keyboard.press("Alt+ArrowRight")
    await expect.poll(async () => (await call(owner, "GET", `/wiki/v1/pages/${agenda}`)).parentPageId, { timeout: 10_000 }).toBe(start)
    await tree(ben)
      .getByRole("listitem")
      .filter({ hasText: "Start" })
      .getByRole("list")
      .getByRole("link", { name: "Agenda" })
      .waitFor({ timeout: 10_000 })

    // A rename through the API (an agent, say): both trees follow, and so does the title of the page Ben has open
    // (Ann is on her new page).
    await call(owner, "PATCH", `/wiki/v1/pages/${start}`, { title: "Start here" })
    for (const page of [ann, ben]) await tree(page).getByRole("link", { name: "Start here" }).waitFor({ timeout: 10_000 })
    await ben.getByRole("heading", { name: "Start here", level: 1 }).waitFor({ timeout: 10_000 })
    // Ann renames her new page, then archives it, from its settings: Ben's tree follows both.
    const settings = ann.getByRole("region", { name: "Page", exact: true })
    await settings.getByLabel("Title").fill("Meeting agenda")
    await settings.getByRole("button", { name: "Rename" }).click()
    await tree(ben).getByRole("link", { name: "Meeting agenda" }).waitFor({ timeout: 10_000 })
    await settings.getByRole("button", { name: "Archive page" }).click()
    await settings.getByRole("button", { name: "Archive it and its subpages" }).click()
    await expect.poll(() => tree(ben).getByRole("link", { name: "Meeting agenda" }).count(), { timeout: 10_000 }).toBe(0)
    expect((await call(owner, "GET", `/wiki/v1/pages/${agenda}`)).archivedAt).not.toBe(null)
    await screenshot(ben, "wiki-live-tree")
    expect(errors()).toEqual([])
  }, 90_000)

  it("comments anchored to text reach the other person live: replies, resolve, reopen; a version viewed and restored", async () => {
    const room = await call(owner, "POST", "/wiki/v1/spaces", { workspaceId, name: "Review room", key: "RR" })
    const plan = (await call(owner, "POST", `/wiki/v1/spaces/${room.id}/pages`, { title: "Plan", markdown: "Ship the beta in May." })).id
    const route = `w/${workspaceId}/wiki/${room.id}/${plan}`
    planRoute = route
    const [ann, ben] = await Promise.all([rig.signedIn(owner, route, 1400), rig.signedIn(member, route, 1400)])
    for (const page of [ann, ben]) {
      await page.locator(".tiptap").getByText("Ship the beta in May.").waitFor()
      await page.getByText("● live").waitFor({ timeout: 20_000 })
    }

    // Opening it together added nothing to it (an editor binds to the document once it holds the server's content).
    expect((await call(owner, "GET", `/wiki/v1/pages/${plan}`)).content.content).toEqual([
      { type: "paragraph", content: [{ type: "text", text: "Ship the beta in May." }] }
    ])

    // Ann comments on selected text.
    await ann.locator(".tiptap").getByText("Ship the beta in May.").selectText()
    await ann.getByText("On: “Ship the beta in May.”").waitFor()
    await ann.getByLabel("Comment", { exact: true }).fill("Which May?")
    await ann.getByRole("button", { name: "Comment", exact: true }).click()

    // Ben sees the thread without reloading, and replies.
    const bens = ben.getByRole("list", { name: "Open comments" }).getByRole("listitem", { name: "Comment by Ann" })
    await bens.getByText("Which May?").waitFor({ timeout: 10_000 })
    expect(await bens.locator("blockquote").textContent()).toContain("Ship the beta in May.")
    await bens.getByLabel("Reply to Ann").fill("May 2027.")
    await bens.getByRole("button", { name: "Reply" }).click()
    const anns = ann.getByRole("list", { name: "Open comments" }).getByRole("listitem", { name: "Comment by Ann" })
    await anns.getByRole("list", { name: "Replies" }).getByText("May 2027.").waitFor({ timeout: 10_000 })

    // "Show in text" selects the quoted text in Ann's editor.
    await anns.getByRole("button", { name: "Show in text" }).click()
    await expect.poll(() => ann.evaluate(() => String((globalThis as any).getSelection()))).toContain("Ship the beta")
    await screenshot(ann, "wiki-comments")

    // Ann resolves it: it leaves Ben's open threads; Ben finds it among the resolved ones and reopens it.
    await anns.getByRole("button", { name: "Resolve" }).click()
    await ben.getByText("No open comments.").waitFor({ timeout: 10_000 })
    await ben.getByLabel("Show").selectOption("resolved")
    const resolved = ben.getByRole("list", { name: "Resolved comments" }).getByRole("listitem", { name: "Comment by Ann" })
    await resolved.getByRole("button", { name: "Reopen" }).click()
    await ann.getByRole("list", { name: "Open comments" }).getByText("Which May?").waitFor({ timeout: 10_000 })
    const [thread] = (await call(owner, "GET", `/wiki/v1/pages/${plan}/comments`)).items
    expect(thread).toMatchObject({ body: "Which May?", resolved: false, anchor: { quote: "Ship the beta in May." } })
    expect(thread.replies.map((r: { body: string }) => r.body)).toEqual(["May 2027."])

    // Ann types, the text is stored; version 1 still reads as created, and restoring it reaches both editors.
    await ann.locator(".tiptap").getByText("Ship the beta in May.").click()
    await ann.keyboard.press("End")
    await ann.keyboard.type(" Or June.")
    await expect.poll(async () => (await call(owner, "GET", `/wiki/v1/pages/${plan}`)).markdown, { timeout: 20_000 }).toContain("Or June.")
    await ben
      .locator(".tiptap")
      .getByText(/Or June\./)
      .waitFor({ timeout: 10_000 })
    const versions = ann.getByRole("region", { name: "Versions" })
    await versions.getByRole("button", { name: "View version 1" }).click()
    const view = versions.getByRole("article", { name: /Version 1: Plan/ })
    await view.getByText("Ship the beta in May.").waitFor()
    expect(await view.textContent()).not.toContain("Or June.")
    await screenshot(ann, "wiki-version")
    await view.getByRole("button", { name: "Restore this version" }).click()
    for (const page of [ann, ben])
      await expect.poll(() => page.locator(".tiptap").textContent(), { timeout: 10_000 }).not.toContain("Or June.")
    await versions
      .getByRole("list", { name: "Page versions" })
      .getByText(/· restored ·/)
      .waitFor({ timeout: 10_000 })
    expect(errors()).toEqual([])
  }, 120_000)

  it("a comment mentions a member picked from the suggestions, is edited and deleted; a version compared with now; the other's version list follows", async () => {
    const room = await call(owner, "POST", "/wiki/v1/spaces", { workspaceId, name: "Notes room", key: "NR" })
    const notes = (await call(owner, "POST", `/wiki/v1/spaces/${room.id}/pages`, { title: "Notes", markdown: "Alpha line.\n\nBeta line." }))
      .id
    const route = `w/${workspaceId}/wiki/${room.id}/${notes}`
    const [ann, ben] = await Promise.all([rig.signedIn(owner, route, 1400), rig.signedIn(member, route, 390)])
    for (const page of [ann, ben]) {
      await page.locator(".tiptap").getByText("Beta line.").waitFor()
      await page.getByText("● live").waitFor({ timeout: 20_000 })
    }

    // Ann types "@Be": the members matching are offered; Enter picks Ben, written as his e-mail.
    const comments = ann.getByRole("region", { name: "Comments" })
    const field = comments.getByRole("combobox", { name: "Comment", exact: true })
    await field.pressSequentially("Please check this @Ben")
    await comments.getByRole("option", { name: /Ben/ }).waitFor()
    await field.press("Enter")
    expect(await field.inputValue()).toBe(`Please check this @${member.email} `)
    await comments.getByRole("button", { name: "Comment", exact: true }).click()
    const [thread] = (await call(owner, "GET", `/wiki/v1/pages/${notes}/comments`)).items
    expect(thread.mentions.map((m: { userId: string }) => m.userId)).toEqual([member.userId])

    // Ben sees it live and replies; Ann edits her comment, Ben sees the new text.
    const bens = ben.getByRole("list", { name: "Open comments" }).getByRole("listitem", { name: "Comment by Ann" })
    await bens.getByText(`Please check this @${member.email}`).waitFor({ timeout: 10_000 })
    await bens.getByRole("combobox", { name: "Reply to Ann" }).fill("On it.")
    await bens.getByRole("button", { name: "Reply" }).click()
    const anns = ann.getByRole("list", { name: "Open comments" }).getByRole("listitem", { name: "Comment by Ann" })
    await anns.getByRole("listitem", { name: "Reply by Ben" }).getByText("On it.").waitFor({ timeout: 10_000 })
    // Ben may not edit Ann's comment (nor delete it: he is no space admin).
    expect(await bens.getByRole("button", { name: "Edit your comment" }).count()).toBe(0)
    expect(await bens.getByRole("button", { name: "Delete Ann's comment" }).count()).toBe(0)
    await anns.getByRole("button", { name: "Edit your comment" }).click()
    const edit = anns.getByRole("combobox", { name: "Edit your comment" })
    await edit.fill("Please check the beta line.")
    await anns.getByRole("button", { name: "Save" }).click()
    await bens.getByText("Please check the beta line.").waitFor({ timeout: 10_000 })
    await bens
      .getByText(/· edited/)
      .first()
      .waitFor()
    expect(errors()).toEqual([])
    for (const v of await seriousViolations(ann)) throw new Error(`comments: ${v.id} ${v.help} at ${v.targets.join(", ")}`)

    // Ben deletes his reply (asked twice): it leaves Ann's thread.
    await bens.getByRole("button", { name: "Delete Ben's reply" }).click()
    await bens.getByRole("button", { name: "Delete this reply" }).click()
    await expect.poll(() => anns.getByText("On it.").count(), { timeout: 10_000 }).toBe(0)

    // Ann types a line; comparing version 1 with now shows it as added.
    await ann.locator(".tiptap").getByText("Beta line.").click()
    await ann.keyboard.press("End")
    await ann.keyboard.type(" Gamma too.")
    await expect
      .poll(async () => (await call(owner, "GET", `/wiki/v1/pages/${notes}`)).markdown, { timeout: 20_000 })
      .toContain("Gamma too.")
    const versions = ann.getByRole("region", { name: "Versions" })
    await versions.getByRole("button", { name: "Compare version 1 with the current page" }).click()
    const diff = versions.getByRole("article", { name: "Version 1 compared with now" })
    const changed = diff.getByRole("list", { name: "Changed lines" })
    await changed.locator("ins").first().waitFor()
    expect(await changed.locator("ins").allTextContents()).toEqual(["Beta line. Gamma too."])
    expect(await changed.locator("del").allTextContents()).toEqual(["Beta line."])
    await diff.getByText("1 line added, 1 line removed", { exact: false }).waitFor()
    await screenshot(ann, "wiki-version-diff")
    for (const v of await seriousViolations(ann)) throw new Error(`diff: ${v.id} ${v.help} at ${v.targets.join(", ")}`)

    // Ann restores version 1: Ben's version list shows the restore without a reload.
    const bensVersions = ben.getByRole("region", { name: "Versions" }).getByRole("list", { name: "Page versions" })
    await bensVersions.getByText(/^v1 ·/).waitFor()
    expect(await bensVersions.getByText(/· restored ·/).count()).toBe(0)
    await versions.getByRole("button", { name: "Restore version 1" }).click()
    await bensVersions.getByText(/· restored ·/).waitFor({ timeout: 15_000 })

    // Ann deletes her comment: Ben has no open comments left.
    await anns.getByRole("button", { name: "Delete Ann's comment" }).click()
    await anns.getByRole("button", { name: "Delete this comment" }).click()
    await ben.getByRole("region", { name: "Comments" }).getByText("No open comments.").waitFor({ timeout: 10_000 })
    expect((await call(owner, "GET", `/wiki/v1/pages/${notes}/comments`)).items).toEqual([])
    expect(errors()).toEqual([])
  }, 120_000)

  it("the trash: an archived page restored, another deleted for good, live for another reader", async () => {
    const shelf = await call(owner, "POST", "/wiki/v1/spaces", { workspaceId, name: "Shelf", key: "SH" })
    const keep = (await call(owner, "POST", `/wiki/v1/spaces/${shelf.id}/pages`, { title: "Keep me", markdown: "Kept." })).id
    const drop = (await call(owner, "POST", `/wiki/v1/spaces/${shelf.id}/pages`, { title: "Drop me", markdown: "Dropped." })).id
    await call(owner, "POST", `/wiki/v1/pages/${keep}/archive`)
    const [ann, ben] = await Promise.all([
      rig.signedIn(owner, `w/${workspaceId}/wiki/${shelf.id}/${drop}`, 1400),
      rig.signedIn(member, `w/${workspaceId}/wiki/${shelf.id}/trash`, 390)
    ])
    // Ann reaches the trash from the space's navigation.
    await ann.getByRole("navigation", { name: "Pages of the space" }).getByRole("link", { name: "Trash" }).click()
    await ann.getByRole("heading", { name: "Trash", level: 1 }).waitFor()
    for (const page of [ann, ben]) await page.getByText("● live").waitFor({ timeout: 20_000 })
    const annsTrash = ann.getByRole("list", { name: "Archived pages" })
    const bensTrash = ben.getByRole("list", { name: "Archived pages" })
    await annsTrash.getByRole("listitem", { name: "Keep me" }).waitFor()
    await bensTrash.getByRole("listitem", { name: "Keep me" }).waitFor()
    // Ben, a space editor, restores; delete for good is for space admins.
    expect(await bensTrash.getByRole("button", { name: /Delete for good/ }).count()).toBe(0)
    await screenshot(ben, "wiki-trash-editor")

    // Ann archives another page through the API (an agent, say): both trashes show it.
    await call(owner, "POST", `/wiki/v1/pages/${drop}/archive`)
    for (const trash of [annsTrash, bensTrash]) await trash.getByRole("listitem", { name: "Drop me" }).waitFor({ timeout: 10_000 })

    // Ann restores "Keep me": it leaves Ben's trash and returns to his tree.
    await annsTrash.getByRole("button", { name: "Restore Keep me" }).click()
    await expect.poll(() => bensTrash.getByRole("listitem", { name: "Keep me" }).count(), { timeout: 10_000 }).toBe(0)
    await tree(ben).getByRole("link", { name: "Keep me" }).waitFor({ timeout: 10_000 })
    expect((await call(owner, "GET", `/wiki/v1/pages/${keep}`)).archivedAt).toBe(null)
    await ann.getByRole("link", { name: "Open Keep me" }).waitFor()

    // Ann deletes "Drop me" for good (asked twice).
    await annsTrash.getByRole("button", { name: "Delete for good Drop me" }).click()
    await annsTrash.getByRole("button", { name: "Delete Drop me and its subpages" }).click()
    await ben.getByText("The trash is empty.").waitFor({ timeout: 10_000 })
    expect((await rig.atrium.request("GET", `/wiki/v1/pages/${drop}`, { token: owner.token })).status).toBe(404)
    await screenshot(ann, "wiki-trash")
    expect(errors()).toEqual([])
  }, 90_000)

  it("a new space from the form; its members and roles added, changed and removed by its admin, read by a space viewer", async () => {
    const ann = await rig.signedIn(owner, `w/${workspaceId}/wiki`, 1400)
    await ann.getByText("New space").click()
    const form = ann.getByRole("form", { name: "New space" })
    await form.getByLabel("Name").fill("Design")
    await form.getByLabel("Key (optional, e.g. ENG)").fill("DSGN")
    await form.getByLabel("Only people and roles listed in the space").check()
    for (const v of await seriousViolations(ann)) throw new Error(`new space: ${v.id} ${v.help} at ${v.targets.join(", ")}`)
    await form.getByRole("button", { name: "Create space" }).click()
    await ann.getByText("Create the first page of this space.").waitFor({ timeout: 10_000 })
    const design = (await call(owner, "GET", `/wiki/v1/spaces?workspaceId=${workspaceId}`)).items.find(
      (s: { name: string }) => s.name === "Design"
    )
    expect(design).toMatchObject({ key: "DSGN", visibility: "restricted", role: "admin" })
    expect(ann.url()).toContain(`/wiki/${design.id}`)

    // Its members and roles: Ann adds Ben as an editor, then makes him a viewer.
    await ann.getByRole("navigation", { name: "Pages of the space" }).getByRole("link", { name: "Members and roles" }).click()
    await ann.getByRole("heading", { name: "Members and roles", level: 1 }).waitFor()
    await ann.getByText("This space is restricted", { exact: false }).waitFor()
    const add = ann.getByRole("form", { name: "Add to the space" })
    await add.getByLabel("E-mail or workspace role (admin, member, viewer)").fill(member.email)
    await add.getByLabel("Space role", { exact: true }).selectOption("editor")
    await add.getByRole("button", { name: "Add to space" }).click()
    const listed = ann.getByRole("list", { name: "Space members" })
    await listed.getByText("Ben", { exact: true }).waitFor({ timeout: 10_000 })
    const roleOf = async () =>
      (await call(owner, "GET", `/wiki/v1/spaces/${design.id}/permissions`)).entries.find(
        (e: { userId: string }) => e.userId === member.userId
      )?.role
    expect(await roleOf()).toBe("editor")
    await ann.getByLabel("Space role of Ben").selectOption("viewer")
    await expect.poll(roleOf, { timeout: 10_000 }).toBe("viewer")
    await screenshot(ann, "wiki-space-access")

    // Ben, now a space viewer, reads the list without the controls.
    const ben = await rig.signedIn(member, `w/${workspaceId}/wiki/${design.id}/access`, 390)
    await ben.getByText("Your role in this space: viewer.").waitFor({ timeout: 10_000 })
    await ben.getByText("Space admins change who may use the space.").waitFor()
    expect(await ben.getByRole("combobox", { name: /Space role of/ }).count()).toBe(0)

    // Ann removes him: the restricted space is no longer his.
    await ben.close()
    await listed.getByRole("button", { name: "Remove Ben" }).click()
    await expect.poll(roleOf, { timeout: 10_000 }).toBe(undefined)
    expect([403, 404]).toContain((await rig.atrium.request("GET", `/wiki/v1/spaces/${design.id}`, { token: member.token })).status)
    expect(errors()).toEqual([])
  }, 90_000)

  it("the wiki pages at 390 and 1,400 px: a screenshot each and no serious or critical axe violation", async () => {
    const routes: Array<[string, string, string]> = [
      ["wiki-spaces", `w/${workspaceId}/wiki`, "Wiki"],
      ["wiki-space-page", `w/${workspaceId}/wiki/${space.id}/${pages.get("Onboarding")}`, "Onboarding"],
      ["wiki-page-comments", planRoute, "Plan"],
      ["wiki-search-results", `w/${workspaceId}/wiki/search?q=first`, "Search the wiki"],
      ["wiki-trash", `w/${workspaceId}/wiki/${space.id}/trash`, "Trash"],
      ["wiki-space-access", `w/${workspaceId}/wiki/${space.id}/access`, "Members and roles"]
    ]
    const found: Array<string> = []
    const page = await rig.signedIn(owner, `w/${workspaceId}`, 390)
    for (const [name, route, heading] of routes) {
      await page.goto(`${rig.atrium.origin}/${route}`)
      // The page's title and its content's own first heading may both say it.
      await page.getByRole("heading", { name: heading, level: 1 }).first().waitFor()
      await page.waitForLoadState("networkidle")
      await atWidths(page, [390, 1400], async (width) => {
        await screenshot(page, name)
        for (const v of await seriousViolations(page))
          found.push(`${name} @${width}: ${v.id} (${v.impact}) ${v.help} at ${v.targets.join(", ")}`)
      })
    }
    expect(found).toEqual([])
  }, 300_000)
})
