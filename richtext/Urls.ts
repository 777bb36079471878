/** Escaping and URL checks shared by the HTML renderers (server exports and the editor schema). Browser-safe. */

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"))

// Schemes that only name a place or an address (Tiptap's link defaults, plus irc and our mentions); scripts never.
const SAFE_SCHEMES = new Set(["http", "https", "ftp", "ftps", "mailto", "tel", "callto", "sms", "cid", "xmpp", "irc", "ircs", "mention"])

/** The URL when it is safe to put in href/src, else undefined. Relative URLs are safe. */
export const safeUrl = (url: string, image = false): string | undefined => {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
  const probe = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, "")
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(probe)?.[1]?.toLowerCase()
  if (scheme === undefined) return url
  if (SAFE_SCHEMES.has(scheme)) return url
  if (image && scheme === "data" && /^data:image\/(png|gif|jpe?g|webp|avif|bmp);/i.test(probe)) return url
  return undefined
}
