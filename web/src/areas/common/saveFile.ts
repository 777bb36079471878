/** Hands `body` to the browser as a file download (through a transient link, how a browser is asked to save one). */
export const saveFile = (body: Blob, filename: string) => {
  const url = URL.createObjectURL(body)
  const link = document.createElement("a")
  link.href = url
  link.download = filename
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
