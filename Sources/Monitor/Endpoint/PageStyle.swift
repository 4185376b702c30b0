/// The pages' one style sheet, served at `/style.css` from the same origin, so the Content-Security-Policy can
/// forbid inline styles and every other origin. Phone and wide layouts are CSS only: below 720 px the domain
/// table becomes one card per domain, each cell labelled by its `data-label`.
enum PageStyle {
    static let path = "/style.css"

    static let css = """
        :root { color-scheme: light dark; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --muted: #6e7781; }
        * { box-sizing: border-box; }
        body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 1rem; max-width: 1400px; }
        h1 { font-size: 1.4rem; margin: 0 0 .25rem; } h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
        a { color: inherit; } .muted, time { color: var(--muted); }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #d0d7de; }
        th { font-weight: 600; white-space: nowrap; }
        td { overflow-wrap: anywhere; }
        .verdict { font-weight: 600; white-space: nowrap; }
        .v-ready { color: var(--ok); } .v-cdn_stale, .v-cdn_missing, .v-unknown { color: var(--warn); }
        .v-origin_broken, .v-expectation_failed { color: var(--bad); }
        .sev-error { color: var(--bad); } .sev-warning { color: var(--warn); }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
        dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
        .finding { border-left: 4px solid #d0d7de; padding: .25rem .75rem; margin: .5rem 0; }
        .finding p { margin: .2rem 0; overflow-wrap: anywhere; } .finding .message { white-space: pre-wrap; }
        .finding.consequence { margin-left: 1.5rem; }
        .chart svg { width: 100%; height: auto; max-width: 720px; }
        .chart .line { fill: none; stroke: #0969da; stroke-width: 2; } .chart .dot { fill: #0969da; }
        .chart .axis { stroke: var(--muted); } .chart text { fill: currentColor; font-size: 12px; }
        @media (max-width: 720px) {
          table.domains thead { display: none; }
          table.domains tr { display: block; border: 1px solid #d0d7de; border-radius: 6px; margin: .5rem 0; }
          table.domains td { display: grid; grid-template-columns: 9rem 1fr; border: 0; }
          table.domains td::before { content: attr(data-label); font-weight: 600; }
          dl.facts { grid-template-columns: 1fr; } dl.facts dd { margin-bottom: .4rem; }
        }
        """
}
