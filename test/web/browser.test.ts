/**
 * The web app in a real browser: Debian's Chromium driven by playwright-core
 * (headless, --no-sandbox, background networking disabled). Two users co-edit
 * one wiki page; a board follows API changes live and resumes after the
 * server closes its socket. Screenshots land in test-results/web/ (not committed).
 * Without /usr/bin/chromium the suite is skipped with a loud warning
 * (`.ci/run` installs it).
 */
import path from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { docToText } from "../../richtext/RichText.ts"
import { BrowserRig, chromiumAvailable, SHOTS, type User } from "./BrowserRig.ts"

describe.skipIf(!chromiumAvailable("web browser tests"))("web app in Chromium", () => {
  let rig: BrowserRig
  let owner: User
  let member: User
  let workspaceId: string
  const call = (user: User, method: string, url: string, body?: unknown) => rig.call(user, method, url, body)
  const signedIn = (user: User, route: string): Promise<Page> => rig.signedIn(user, route)
  /** Console errors and uncaught exceptions of every page so far. */
  const errors = () => [...rig.consoleErrors, ...rig.pageErrors]

  beforeAll(async () => {
    rig = await BrowserRig.start("Browser tests")
    ;({ owner, member, workspaceId } = rig)
  }, 120_000)

  afterAll(async () => {
    await rig?.close()
  })

  it("loads index.html and signs in without console errors", async () => {
    const page = await rig.signedInThroughForm(owner, `w/${workspaceId}`)
    await page.getByRole("navigation", { name: "Areas" }).getByRole("link", { name: "Work" }).waitFor()
    await page.getByRole("heading", { name: "Browser tests", level: 1 }).waitFor()
    expect(errors()).toEqual([])
  })

  it("lets two users edit one page together: they converge, see each other's caret by name, and the text is stored", async () => {
    const space = await call(owner, "POST", "/wiki/v1/spaces", { workspaceId, name: "Handbook", key: "HB" })
    const created = await call(owner, "POST", `/wiki/v1/spaces/${space.id}/pages`, {
      title: "Team notes",
      markdown: "# Team notes\n\nStart here."
    })
    const route = `w/${workspaceId}/wiki/${space.id}/${created.id}`
    const [ann, ben] = await Promise.all([signedIn(owner, route), signedIn(member, route)])
    for (const page of [ann, ben]) await page.locator(".tiptap").getByText("Start here.").waitFor()
    // Both are connected once each sees the other in "Editing now" (awareness went both ways).
    for (const page of [ann, ben]) {
      await expect
        .poll(() => page.getByRole("list", { name: "Editing now" }).textContent(), { timeout: 20_000 })
        .toMatch(/Ann[\s\S]*Ben|Ben[\s\S]*Ann/)
    }

    // Both type at once, each in their own block (text typed at one spot by two people interleaves, as it should).
    // Each caret is placed, and seen to rest in its block, before anyone types: a click that races the other
    // user's first keystrokes can land while the editor is re-rendering them and leave the caret elsewhere.
    const edits = [
      { page: ann, block: "Team notes", text: " Ann was here" },
      { page: ben, block: "Start here.", text: " Ben was here" }
    ]
    // The text of the block holding the caret (a DOM selection in the browser; the tests compile without DOM typings).
    const caretBlock = (page: Page) =>
      page.evaluate(() => {
        const anchor: any = (globalThis as any).getSelection()?.anchorNode
        const block = anchor?.parentElement?.closest(".tiptap > *")?.cloneNode(true)
        for (const caret of block?.querySelectorAll(".collaboration-carets__caret") ?? []) caret.remove()
        return block?.textContent ?? ""
      })
    for (const { page, block } of edits) {
      await expect
        .poll(
          async () => {
            await page.locator(".tiptap").getByText(block).click()
            await page.keyboard.press("End")
            return caretBlock(page)
          },
          { timeout: 10_000 }
        )
        .toBe(block)
    }
    await Promise.all(edits.map(({ page, text }) => page.keyboard.type(text, { delay: 15 })))

    // The document's text, without the other user's caret label.
    const textOf = (page: Page) =>
      // A DOM element in the browser (the tests compile without DOM typings).
      page.locator(".tiptap").evaluate((editor: any) => {
        const copy = editor.cloneNode(true)
        for (const caret of copy.querySelectorAll(".collaboration-carets__caret")) caret.remove()
        return [...copy.children].map((block: { textContent: string }) => block.textContent).join("\n")
      })
    const typed = /(?=[\s\S]*Ann was here)(?=[\s\S]*Ben was here)/
    for (const page of [ann, ben]) await expect.poll(() => textOf(page), { timeout: 20_000 }).toMatch(typed)

    // Each sees the other's caret, labelled with their name.
    await ann.locator(".collaboration-carets__label", { hasText: "Ben" }).waitFor({ timeout: 20_000 })
    await ben.locator(".collaboration-carets__label", { hasText: "Ann" }).waitFor({ timeout: 20_000 })

    // The server holds what they typed.
    await expect
      .poll(async () => docToText((await call(owner, "GET", `/wiki/v1/pages/${created.id}`)).content), { timeout: 20_000 })
      .toMatch(typed)

    // A comment anchored to selected text.
    await ann.locator(".tiptap").getByText("Start here.").selectText()
    await ann.getByLabel("Comment", { exact: true }).fill("Is this the right start?")
    await ann.getByRole("button", { name: "Comment", exact: true }).click()
    await ann.locator(".comment blockquote", { hasText: "Start here." }).waitFor()
    const comments = await call(owner, "GET", `/wiki/v1/pages/${created.id}/comments`)
    // The selection ends at Ben's caret when his awareness still places it before his text (a widget the
    // browser's selection stops at), so the quote is the paragraph up to there or all of it.
    expect(["Start here.", "Start here. Ben was here"]).toContain(comments.items[0].anchor.quote)

    await ann.screenshot({ path: path.join(SHOTS, "editor-ann.png"), fullPage: true })
    await ben.screenshot({ path: path.join(SHOTS, "editor-ben.png"), fullPage: true })

    // Restoring the first version reaches both open editors.
    await ann.getByRole("button", { name: "Restore version 1" }).click()
    for (const page of [ann, ben]) await expect.poll(() => textOf(page), { timeout: 10_000 }).not.toContain("was here")
    expect(await textOf(ben)).toContain("Start here.")
    expect(errors()).toEqual([])
  }, 60_000)

  it("shows a task moved by the API at once, and after the server closes its socket resumes with the events it missed", async () => {
    const pmSpace = await call(owner, "POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { name: "Delivery" })
    const list = await call(owner, "POST", `/pm/v1/spaces/${pmSpace.id}/lists`, { name: "Sprint board" })
    const statuses = (await call(owner, "GET", `/pm/v1/lists/${list.id}/statuses`)).items as Array<{ name: string }>
    const [first, second, third] = statuses.map((s) => s.name)
    const tasks: Array<{ id: string }> = []
    for (const name of ["Write the brief", "Review the copy", "Ship it"])
      tasks.push(await call(owner, "POST", `/pm/v1/lists/${list.id}/tasks`, { name }))

    const page = await signedIn(member, `w/${workspaceId}/work/lists/${list.id}`)
    const sentFrames: Array<string> = []
    page.on("websocket", (socket) => socket.on("framesent", (frame) => sentFrames.push(String(frame.payload))))
    const column = (status: string) => page.getByRole("region", { name: status, exact: true })
    await column(first!).getByText("Write the brief").waitFor()
    await page.getByText("● live").waitFor()

    // Shift+↑ moves a card up its column (a PUT of its position).
    await column(first!)
      .getByRole("link", { name: /Ship it/ })
      .focus()
    await page.keyboard.press("Shift+ArrowUp")
    const order = async () =>
      ((await call(owner, "GET", `/pm/v1/lists/${list.id}/tasks?order=position`)).items as Array<{ name: string }>).map((t) => t.name)
    await expect.poll(order, { timeout: 10_000 }).toEqual(["Write the brief", "Ship it", "Review the copy"])
    await expect
      .poll(() => column(first!).getByRole("link").allTextContents())
      .toEqual(["T-1 Write the brief", "T-3 Ship it", "T-2 Review the copy"])

    // A PATCH through the API shows up without a reload (boards have no polling: only the live stream can move it).
    await call(owner, "PATCH", `/pm/v1/tasks/${tasks[0].id}`, { status: second })
    await column(second!).getByText("Write the brief").waitFor({ timeout: 10_000 })

    // The keyboard moves a card too (Shift+→), through the same PATCH.
    await column(first!)
      .getByRole("link", { name: /Review the copy/ })
      .focus()
    await page.keyboard.press("Shift+ArrowRight")
    await expect.poll(async () => (await call(owner, "GET", `/pm/v1/tasks/${tasks[1].id}`)).status.name, { timeout: 10_000 }).toBe(second)

    // Drag and drop moves a card back.
    await column(second!).getByText("Write the brief").dragTo(column(first!))
    await expect.poll(async () => (await call(owner, "GET", `/pm/v1/tasks/${tasks[0]!.id}`)).status.name, { timeout: 10_000 }).toBe(first)

    // The server closes the socket (Ben's role changes: 4409); his new ticket is held while a task moves.
    await rig.whileReconnectionHeld(page, "**/pm/v1/ws/ticket", () =>
      call(owner, "PATCH", `/pm/v1/tasks/${tasks[2].id}`, { status: third })
    )

    await column(third!).getByText("Ship it").waitFor({ timeout: 10_000 })
    await page.getByText("● live").waitFor()
    const subscribes = sentFrames.map((f) => JSON.parse(f)).filter((f) => f.type === "subscribe")
    expect(subscribes.length).toBeGreaterThanOrEqual(2)
    expect(typeof subscribes.at(-1).lastSeq).toBe("number")

    await page.screenshot({ path: path.join(SHOTS, "board.png"), fullPage: true })
    expect(errors().filter((e) => !/WebSocket|ERR_|status of 4\d\d/.test(e))).toEqual([])
  }, 60_000)
})
