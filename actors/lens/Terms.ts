/** The words of a text as ranking counts them: lower case, stop words dropped, suffixes stripped. */

export const STOP = new Set(
  "a an the and or but of to in on at for with by from is are was were be been being do does did what which who whom whose when where why how i we you he she it they me us our your their my this that these those there here has have had will would should can could may might about into than then so not no any all some of last next week day please tell me show give lens".split(
    " "
  )
)

/** Lower-case word stems: a light suffix strip so "promised" meets "promise" and "tasks" meets "task". */
export const stem = (word: string): string => {
  const w = word.toLowerCase()
  if (w.length <= 4) return w
  return w.replace(/(ing|ed|es|s)$/, "")
}

export const terms = (text: string): Array<string> =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOP.has(t)).map(stem)
