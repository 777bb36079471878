/** Number formats shared by the terminal table, the Markdown report and the charts. */

export const rate = (perSec: number): string =>
  perSec >= 1e6
    ? `${(perSec / 1e6).toFixed(2)}M`
    : perSec >= 1e4
      ? `${(perSec / 1e3).toFixed(1)}k`
      : perSec >= 100
        ? perSec.toFixed(0)
        : perSec.toFixed(1)

export const micros = (us: number): string =>
  us >= 1e6
    ? `${(us / 1e6).toFixed(2)} s`
    : us >= 1e3
      ? `${(us / 1e3).toFixed(us >= 1e4 ? 1 : 2)} ms`
      : us >= 10
        ? `${us.toFixed(0)} µs`
        : `${us.toFixed(2)} µs`

export const bytes = (n: number): string =>
  n >= 2 ** 30
    ? `${(n / 2 ** 30).toFixed(2)} GiB`
    : n >= 2 ** 20
      ? `${(n / 2 ** 20).toFixed(1)} MiB`
      : n >= 1024
        ? `${(n / 1024).toFixed(0)} KiB`
        : `${n} B`

export const times = (ratio: number | undefined): string =>
  ratio === undefined
    ? "–"
    : ratio < 0.01
      ? `${ratio.toPrecision(2)}×`
      : ratio >= 100
        ? `${ratio.toFixed(0)}×`
        : ratio >= 10
          ? `${ratio.toFixed(1)}×`
          : `${ratio.toFixed(2)}×`

export const cores = (n: number | undefined): string => (n === undefined ? "–" : n.toFixed(2))

export const seconds = (s: number | undefined): string => (s === undefined ? "–" : `${s.toFixed(2)} s`)

/** Shorter forms for chart ticks: "10 ms", "2.5k". */
export const trim = (formatted: string): string => formatted.replace(/\.0+(?=\D|$)|(\.\d*?)0+(?=\D|$)/, "$1")
